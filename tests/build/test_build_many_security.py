"""``cartoqa build-many``'s LocalCluster cannot be driven by anyone without its key.

An audit ran code as root through the Dask RPC ``run`` of a build's worker, as the user
``nobody``: scheduler, nannies and workers listened on 127.0.0.1 without authentication.
Now they speak TLS with mutual authentication (a key made for each cluster, held in
memory). These tests attack a live cluster the way that audit did and check that the same
attack succeeds with the key, so a refusal means the key is what stops it.
"""

from __future__ import annotations

import json
import os
import pwd
import ssl
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import dask
import pytest
from distributed import Client

from cartoqa.build_many import secure_local_cluster, worker_pids

#: Tries the Dask RPC ``run`` (the one the audit used) on one address, once over plain TCP
#: and once over TLS, with the credentials in argv[2:] if any; prints one line per try.
RPC_ATTACK = r"""
import asyncio, os, ssl, sys
from distributed.core import rpc
from distributed.protocol.pickle import dumps

address, creds = sys.argv[1], sys.argv[2:]

def context():
    ctx = ssl.create_default_context(ssl.Purpose.SERVER_AUTH)
    ctx.check_hostname = False
    if creds:
        ctx.load_verify_locations(creds[0])
        ctx.load_cert_chain(creds[1], creds[2])
    else:
        ctx.verify_mode = ssl.CERT_NONE
    return ctx

async def attack(addr, args):
    try:
        r = rpc(addr, connection_args=args, timeout=5)
        try:
            out = await asyncio.wait_for(r.run(function=dumps(os.getuid)), 10)
        finally:
            await r.close_rpc()
        print("RAN", out, flush=True)
    except BaseException as exc:  # noqa: BLE001 - any failure is a refusal
        print("REFUSED", type(exc).__name__, flush=True)

async def main():
    port = address.rsplit(":", 1)[1]
    await attack(f"tcp://127.0.0.1:{port}", {})
    await attack(f"tls://127.0.0.1:{port}", {"ssl_context": context(), "require_encryption": True})

asyncio.run(main())
"""

#: The same from another local user, with only Python's standard library (that user
#: cannot read this environment): a TLS handshake, then waiting for the Dask handshake
#: frame a peer sends first. Prints GREETED (the server talked) or REFUSED.
RAW_ATTACK = r"""
import socket, ssl, sys
port = int(sys.argv[1])
for tls in (False, True):
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        if tls:
            ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
            ctx.check_hostname = False
            ctx.verify_mode = ssl.CERT_NONE
            sock = ctx.wrap_socket(sock)
        else:
            sock.sendall(b"\x00" * 64)
        data = sock.recv(1)
        print("GREETED" if data else "REFUSED eof", flush=True)
    except (OSError, ssl.SSLError) as exc:
        print("REFUSED", type(exc).__name__, flush=True)
"""


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[Any, Client]]:
    with dask.config.set({"distributed.worker.daemon": False}):
        local = secure_local_cluster(1)
    client = Client(local, security=local.security)
    try:
        yield local, client
    finally:
        client.close()
        local.close()


def _addresses(client: Client) -> list[str]:
    info = client.scheduler_info()
    workers = info["workers"]
    return [info["address"], *workers, *(w["nanny"] for w in workers.values() if w.get("nanny"))]


@pytest.fixture(scope="module")
def credentials(cluster: tuple[Any, Client], tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The cluster's CA, client certificate and key as files (mode 0600), for the control."""
    security = cluster[0].security
    folder = tmp_path_factory.mktemp("dask-key")
    paths = []
    for name, pem in (("ca.pem", security.tls_ca_file), ("cert.pem", security.tls_client_cert),
                      ("key.pem", security.tls_client_key)):
        path = folder / name
        path.touch(mode=0o600)
        path.write_text(pem, "ascii")
        paths.append(str(path))
    return paths


def test_scheduler_nannies_and_workers_listen_on_loopback_over_tls(
        cluster: tuple[Any, Client]) -> None:
    local, client = cluster
    addresses = _addresses(client)
    assert len(addresses) == 3  # scheduler, one worker, its nanny
    assert all(a.startswith("tls://127.0.0.1:") for a in addresses), addresses
    assert local.security.require_encryption


def test_the_http_listeners_serve_nothing(cluster: tuple[Any, Client]) -> None:
    """Dask's HTTP servers (which cannot be turned off) bind loopback and serve no route."""
    import urllib.error
    import urllib.request

    import psutil

    dask_ports = {int(a.rsplit(":", 1)[1]) for a in _addresses(cluster[1])}
    listening = set()
    for p in [psutil.Process(), *psutil.Process().children(recursive=True)]:
        try:
            connections = p.net_connections(kind="inet")
        except psutil.NoSuchProcess:  # a helper that exited meanwhile listens on nothing
            continue
        listening |= {(c.laddr.ip, c.laddr.port) for c in connections
                      if c.status == psutil.CONN_LISTEN}
    assert {ip for ip, _ in listening} == {"127.0.0.1"}, listening
    http_ports = {port for _, port in listening} - dask_ports
    assert http_ports  # the scheduler's and the worker's
    for port in http_ports:
        for path in ("/health", "/info/main/workers.html", "/json/identity.json", "/metrics",
                     "/status"):
            with pytest.raises(urllib.error.HTTPError) as err:
                urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10)
            assert err.value.code == 404, (port, path)


def test_the_key_holder_runs_code_on_a_worker(cluster: tuple[Any, Client]) -> None:
    assert next(iter(cluster[1].run(os.getpid).values())) != os.getpid()


def test_worker_pids_are_the_worker_processes(cluster: tuple[Any, Client]) -> None:
    """What build-many waits for when it ends: the process each worker runs in (a child
    of this one), not its nanny (which lives in this process)."""
    import psutil

    local, client = cluster
    pids = worker_pids(local)
    assert pids == list(client.run(os.getpid).values())
    assert os.getpid() not in pids
    # forked by the fork server this process started (a child of it)
    assert all(psutil.Process(pid).parent().ppid() == os.getpid() for pid in pids)


#: Starts build-many's cluster in a fresh interpreter, as the command does, and prints
#: which of the stack's modules its worker has before it runs anything, and the command
#: line of the worker's parent.
STACK_PROBE = r"""
import json, sys
import dask, psutil
from distributed import Client
from cartoqa.build_many import secure_local_cluster, worker_pids

with dask.config.set({"distributed.worker.daemon": False}):
    local = secure_local_cluster(1)
with Client(local, security=local.security) as client:
    loaded = client.run(lambda: sorted({"renderers.tiles", "cartoqa.build_many"}
                                       & set(sys.modules)))
    server = psutil.Process(worker_pids(local)[0]).parent()
    print(json.dumps({"loaded": list(loaded.values()), "server": server.cmdline()}))
local.close()
"""


def test_the_workers_start_with_the_stack_imported() -> None:
    """The fork server imported Dask and the rendering stack once; a worker, forked from
    it, has them before it runs anything (a spawned one imports each itself).

    Checked in a fresh interpreter, as build-many runs: a process keeps the fork server
    it started first, with what that one imported (``start_worker_server``), so in this
    test process an earlier ``--workers`` build may have started it without Dask's
    modules (the CI run of 0689641 failed that way, by test order)."""
    done = subprocess.run([sys.executable, "-c", STACK_PROBE], capture_output=True,
                          text=True, timeout=180, check=True)
    probe = json.loads(done.stdout.strip().splitlines()[-1])
    assert probe["loaded"] == [["cartoqa.build_many", "renderers.tiles"]]
    assert "forkserver" in " ".join(probe["server"])


def test_the_workers_keep_no_statistical_profile(cluster: tuple[Any, Client]) -> None:
    """Dask samples each worker thread every 10 ms for a dashboard nobody can open."""
    enabled = cluster[1].run(lambda: dask.config.get("distributed.worker.profile.enabled"))
    assert set(enabled.values()) == {False}  # read in the worker process itself


def test_the_fork_server_listens_in_a_private_folder(cluster: tuple[Any, Client]) -> None:
    """The workers' fork server (started with the cluster) takes requests on a unix
    socket in a folder only this user can open."""
    from multiprocessing import util

    folder = Path(util.get_temp_dir())
    assert folder.stat().st_mode & 0o777 == 0o700
    sockets = [p for p in folder.iterdir() if p.is_socket()]
    assert sockets and all(p.stat().st_mode & 0o077 == 0 for p in sockets)


def _attack(address: str, *creds: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", RPC_ATTACK, address, *creds],
                          capture_output=True, text=True, timeout=120, check=True)
    return done.stdout.split("\n")[:-1]


def test_rpc_run_without_the_key_is_refused_on_every_listener(
        cluster: tuple[Any, Client], credentials: list[str]) -> None:
    worker = next(iter(cluster[1].scheduler_info()["workers"]))
    with_key = _attack(worker, *credentials)
    assert with_key[0].startswith("REFUSED")  # plain TCP: never, even with the key
    assert with_key[1].startswith("RAN")      # the attack works with the key ...
    for address in _addresses(cluster[1]):   # ... and fails everywhere without it
        lines = _attack(address)
        assert len(lines) == 2 and all(line.startswith("REFUSED") for line in lines), \
            (address, lines)


def _other_user() -> str | None:
    for name in ("nobody", "cartoqa-browser"):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    return None


@pytest.mark.skipif(os.geteuid() != 0, reason="switching to another local user needs root")
def test_another_local_user_gets_no_dask_greeting(
        cluster: tuple[Any, Client], credentials: list[str]) -> None:
    user = _other_user()
    assert user is not None, "no unprivileged user to attack as"
    python = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable
    worker = next(iter(cluster[1].scheduler_info()["workers"]))
    port = worker.rsplit(":", 1)[1]
    # Control, as this user with the key: the worker speaks first once TLS is up.
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.load_verify_locations(credentials[0])
    ctx.load_cert_chain(credentials[1], credentials[2])
    import socket

    with socket.create_connection(("127.0.0.1", int(port)), timeout=10) as raw, \
            ctx.wrap_socket(raw) as sock:
        assert sock.recv(1)
    for address in _addresses(cluster[1]):
        done = subprocess.run([python, "-c", RAW_ATTACK, address.rsplit(":", 1)[1]],
                              capture_output=True, text=True, timeout=60, check=True,
                              user=user, cwd="/", env={"PATH": "/usr/bin:/bin"})
        lines = done.stdout.split("\n")[:-1]
        assert len(lines) == 2 and all(line.startswith("REFUSED") for line in lines), \
            (user, address, lines)
