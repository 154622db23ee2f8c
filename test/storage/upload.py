#!/usr/bin/env python3
"""Upload every file under a local directory to an S3 emulator on loopback.

usage: upload.py ENDPOINT BUCKET SRC_DIR KEY_PREFIX

Each file SRC_DIR/<rel> becomes the object KEY_PREFIX/<rel> (the file's
name taken literally as the key, so "a%3Ab" stays "a%3Ab").  The bucket is
created first.  Requests are unsigned: the emulator (s3rver) accepts them.
Prints the number of objects uploaded.
"""
import os
import sys
import urllib.parse
import urllib.request


def put(url, data=b""):
    req = urllib.request.Request(url, data=data, method="PUT")
    with urllib.request.urlopen(req, timeout=30) as r:
        r.read()


def files(src, prefix):
    """(key, bytes) of every file under src, the key prefix/<relative path>."""
    for root, dirs, names in os.walk(src):
        dirs.sort()
        for f in sorted(names):
            path = os.path.join(root, f)
            with open(path, "rb") as fh:
                yield prefix + "/" + os.path.relpath(path, src), fh.read()


def main():
    endpoint, bucket, src, prefix = sys.argv[1:5]
    try:
        put(f"{endpoint}/{bucket}")
    except urllib.error.HTTPError as e:
        if e.code != 409:       # BucketAlreadyExists
            raise
    n = 0
    for key, data in files(src, prefix):
        put(f"{endpoint}/{bucket}/" + urllib.parse.quote(key, safe="/"), data)
        n += 1
    print(f"{n} objects")


if __name__ == "__main__":
    main()
