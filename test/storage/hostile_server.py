#!/usr/bin/env python3
"""A misbehaving S3 endpoint on loopback for scripts/storage_test.sh.

usage: hostile_server.py PORT_FILE

Listens on 127.0.0.1 on a free port (written to PORT_FILE once listening)
and answers path-style S3 requests, "/<bucket>/<key>?<query>" (and Azure
requests in the same form, their listings answered as S3's).  Every
bucket holds the same one-commit Delta table under the key prefix "t/";
the bucket's name says how the server misbehaves (see BEHAVIOURS).  It
never checks signatures.
"""
import http.server
import socketserver
import sys
import threading
import time
import urllib.parse

COMMIT = (
    b'{"protocol":{"minReaderVersion":1,"minWriterVersion":2}}\n'
    b'{"metaData":{"id":"hostile-table","format":{"provider":"parquet","options":{}},'
    b'"schemaString":"{\\"type\\":\\"struct\\",\\"fields\\":[{\\"name\\":\\"id\\",'
    b'\\"type\\":\\"long\\",\\"nullable\\":true,\\"metadata\\":{}}]}",'
    b'"partitionColumns":[],"configuration":{},"createdTime":1}}\n'
    b'{"commitInfo":{"timestamp":1,"operation":"CREATE TABLE"}}\n'
)
LOG_PREFIX = "t/_delta_log/"
COMMIT_KEY = LOG_PREFIX + "00000000000000000000.json"

BEHAVIOURS = {
    "good": "answers correctly",
    "hang": "reads the request and never answers",
    "dribble": "sends the listing one byte every 0.5 s",
    "lateok": "answers correctly after 1 s of silence",
    "trunc": "the commit's body stops short of its Content-Length",
    "s403": "listing: 403 AccessDenied",
    "s404": "listing: 404 NoSuchBucket",
    "s500": "listing: 500 InternalError",
    "s503": "listing: 503 SlowDown, always",
    "flaky": "every request: 503 SlowDown twice, then the right answer",
    "get404": "the commit: 404 NoSuchKey",
    "order": "a listing whose keys are out of order",
    "truncxml": "a listing cut in the middle of its XML",
    "notoken": "a truncated listing without a continuation token",
    "sametoken": "a listing that repeats its continuation token",
    "newtoken": "a listing of empty pages, each with a new token, forever",
    "outside": "a listing with a key outside the prefix",
    "redirect": "listing: 301 to the good bucket",
    "huge": "a listing body of 64 MB",
    "hugeget": "a commit of 4 MB",
    "nolength": "every HEAD: 200 without Content-Length",
}

counts = {}
counts_lock = threading.Lock()


def error_xml(code, message):
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>{code}</Code>'
            f'<Message>{message}</Message><RequestId>hostile</RequestId></Error>').encode()


def listing(keys, truncated=False, token=None):
    body = ['<?xml version="1.0" encoding="UTF-8"?>',
            '<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">',
            '<Name>b</Name>', f'<IsTruncated>{"true" if truncated else "false"}</IsTruncated>']
    if token is not None:
        body.append(f"<NextContinuationToken>{token}</NextContinuationToken>")
    for k, size in keys:
        body.append(f"<Contents><Key>{k}</Key><Size>{size}</Size>"
                    f'<ETag>&quot;e{size}&quot;</ETag></Contents>')
    body.append("</ListBucketResult>")
    return "".join(body).encode()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def send(self, status, body=b"", headers=None, length=None):
        self.send_response(status)
        self.send_header("Content-Length", str(len(body) if length is None else length))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_HEAD(self):
        self.handle_any()

    def do_GET(self):
        self.handle_any()

    def handle_any(self):
        url = urllib.parse.urlsplit(self.path)
        parts = url.path.lstrip("/").split("/", 1)
        bucket = parts[0]
        key = urllib.parse.unquote(parts[1]) if len(parts) > 1 else ""
        query = dict(urllib.parse.parse_qsl(url.query, keep_blank_values=True))
        with counts_lock:
            n = counts.get((bucket, self.command, key, url.query), 0)
            counts[(bucket, self.command, key, url.query)] = n + 1

        if bucket == "hang":
            time.sleep(3600)
            return
        if bucket == "lateok":
            time.sleep(1)
        if bucket == "flaky" and n < 2:
            return self.send(503, error_xml("SlowDown", "Please reduce your request rate."),
                             {"Retry-After": "0"})
        if bucket == "nolength" and self.command == "HEAD":
            self.send_response(200)
            self.end_headers()
            return
        # (an Azure List Blobs request gets the same answers, in S3's form)
        is_list = key == "" and (query.get("list-type") == "2" or query.get("comp") == "list")
        if is_list:
            return self.list(bucket, query)
        if key == COMMIT_KEY:
            return self.commit(bucket)
        return self.send(404, error_xml("NoSuchKey", "The specified key does not exist."))

    def list(self, bucket, query):
        keys = [(COMMIT_KEY, len(COMMIT))]
        if bucket == "s403":
            return self.send(403, error_xml("AccessDenied", "Access Denied"))
        if bucket == "s404":
            return self.send(404, error_xml("NoSuchBucket", "The specified bucket does not exist"))
        if bucket == "s500":
            return self.send(500, error_xml("InternalError", "We encountered an internal error."))
        if bucket == "s503":
            return self.send(503, error_xml("SlowDown", "Please reduce your request rate."))
        if bucket == "redirect":
            return self.send(301, b"", {"Location": "/good/?list-type=2"})
        if bucket == "order":
            return self.send(200, listing([(LOG_PREFIX + "00000000000000000001.json", 10)] + keys))
        if bucket == "outside":
            return self.send(200, listing(keys + [("u/_delta_log/00000000000000000002.json", 10)]))
        if bucket == "truncxml":
            body = listing(keys)
            return self.send(200, body[: len(body) // 2])
        if bucket == "notoken":
            return self.send(200, listing(keys, truncated=True).replace(b"<NextContinuationToken>", b""))
        if bucket == "sametoken":
            if "continuation-token" not in query:
                return self.send(200, listing(keys, truncated=True, token="again"))
            return self.send(200, listing([], truncated=True, token="again"))
        if bucket == "newtoken":
            with counts_lock:
                counts["newtoken"] = counts.get("newtoken", 0) + 1
                t = counts["newtoken"]
            return self.send(200, listing([], truncated=True, token=f"t{t}"))
        if bucket == "huge":
            size = 64 * 1024 * 1024
            self.send_response(200)
            self.send_header("Content-Length", str(size))
            self.end_headers()
            chunk = b" " * 65536
            try:
                for _ in range(size // len(chunk)):
                    self.wfile.write(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass
            return
        if bucket == "dribble":
            body = listing(keys)
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            try:
                for b in body:
                    self.wfile.write(bytes([b]))
                    self.wfile.flush()
                    time.sleep(0.5)
            except (BrokenPipeError, ConnectionResetError):
                pass
            return
        return self.send(200, listing(keys))

    def commit(self, bucket):
        if bucket == "get404":
            return self.send(404, error_xml("NoSuchKey", "The specified key does not exist."))
        if bucket == "trunc":
            self.send_response(200)
            self.send_header("Content-Length", str(len(COMMIT) + 100))
            self.end_headers()
            self.wfile.write(COMMIT[:40])
            self.wfile.flush()
            self.close_connection = True
            return
        if bucket == "hugeget":
            body = COMMIT + b"\n" * (4 * 1024 * 1024)
            return self.send(200, body)
        return self.send(200, COMMIT, {"ETag": '"c0"'})


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    srv = Server(("127.0.0.1", 0), Handler)
    with open(sys.argv[1] + ".tmp", "w") as f:
        f.write(str(srv.server_address[1]))
    import os
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    srv.serve_forever()


if __name__ == "__main__":
    main()
