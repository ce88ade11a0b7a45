"""A webhook receiver for the tests, run as its own process: it verifies every delivery with the
Standard Webhooks library (`standardwebhooks.Webhook.verify`), answers with the status it was
started with (400 to a delivery that does not verify), and appends one JSON line per request
to its log: the headers' id and timestamp, whether it verified, the status it answered and
the envelope.

    python webhook_receiver.py --port P --secret whsec_... --log FILE [--status 200]
"""

from __future__ import annotations

import argparse
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks import Webhook, WebhookVerificationError


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--secret", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--status", type=int, default=200)
    args = parser.parse_args()
    hook = Webhook(args.secret)
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length", "0")))
            headers = dict(self.headers.items())
            try:
                envelope = hook.verify(body, headers)
                verified = True
            except WebhookVerificationError:
                envelope, verified = None, False
            status = args.status if verified else 400
            line = json.dumps({
                "id": self.headers.get("webhook-id"),
                "timestamp": self.headers.get("webhook-timestamp"),
                "verified": verified, "status": status, "envelope": envelope,
            })
            with lock, open(args.log, "a") as log:
                log.write(line + "\n")
            self.send_response(status)
            self.send_header("content-length", "0")
            self.end_headers()

        def log_message(self, format: str, *values: object) -> None:  # quiet: the log is ours
            pass

    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    print("ready", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
