"""Serves a local GGUF model over llama.cpp's OpenAI-compatible HTTP API (the xllamacpp wheel), for `make llm`.

    python serve.py MODEL.gguf [--host 127.0.0.1] [--port 8012] [--ctx 8192] [--threads 2]

Prints `llm: serving MODEL at http://HOST:PORT/v1` once the model is loaded, then serves until interrupted.
"""

import argparse
import os
import signal
import sys
import threading


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", help="the GGUF file")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8012)
    parser.add_argument("--ctx", type=int, default=8192, help="context window in tokens")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args()
    if not os.path.isfile(args.model):
        print(f"error: no model file at {args.model}; run `make llm` to fetch it", file=sys.stderr)
        return 1

    import xllamacpp as xlc

    params = xlc.CommonParams()
    params.model.path = args.model
    params.hostnames = [args.host]
    params.port = args.port
    params.n_ctx = args.ctx
    params.cpuparams.n_threads = args.threads
    params.cpuparams_batch.n_threads = args.threads
    params.n_parallel = 1
    server = xlc.Server(params)
    print(f"llm: serving {os.path.basename(args.model)} at http://{args.host}:{args.port}/v1", flush=True)

    done = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: done.set())
    done.wait()
    del server
    return 0


if __name__ == "__main__":
    sys.exit(main())
