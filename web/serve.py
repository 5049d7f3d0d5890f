"""Serve web/dist/ on http://127.0.0.1:8000/ (or the port given), cross-origin isolated.

    python3 web/serve.py [PORT]

Any static file server can host web/dist/; this one adds the two headers that make the page
cross-origin isolated, without which browsers round the page's clock (`performance.now()`) to
0.1 ms, and the profiler's system times read 0.0 us.
"""

import functools
import http.server
import pathlib
import sys


class Isolated(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()


def main():
    arg = sys.argv[1] if len(sys.argv) > 1 else "8000"
    if not arg.isdigit() or not 0 < int(arg) < 65536:
        sys.exit(f"serve: {arg!r} is no port: give a number from 1 to 65535, e.g. 8000")
    port = int(arg)
    dist = pathlib.Path(__file__).resolve().parent / "dist"
    if not (dist / "index.html").is_file():
        sys.exit(f"serve: no {dist}/index.html: build it first with `bash tools/web-build.sh`")
    Isolated.extensions_map[".wasm"] = "application/wasm"
    handler = functools.partial(Isolated, directory=str(dist))
    try:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError as e:
        sys.exit(f"serve: cannot listen on 127.0.0.1:{port} ({e.strerror}): give another port")
    with server:
        print(f"serving {dist} on http://127.0.0.1:{port}/ (Ctrl+C stops)", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
