"""Send a dataset's items to an OpenAI-compatible chat endpoint and record the answers.

The pieces: :mod:`~cartoqa.runner.request` (pure: payloads and responses),
:mod:`~cartoqa.runner.backoff` (pure: retry decisions and delays),
:mod:`~cartoqa.runner.client` (HTTP with retries), :mod:`~cartoqa.runner.predictions`
(the resumable predictions file) and :mod:`~cartoqa.runner.run` (the whole run).
"""

from cartoqa.runner.run import RunConfig, RunSummary, api_key_from_env, run_dataset

__all__ = ["RunConfig", "RunSummary", "api_key_from_env", "run_dataset"]
