#!/usr/bin/env python3
"""Upload every file under a local directory to Azurite on loopback.

usage: upload_azure.py ENDPOINT ACCOUNT KEY CONTAINER SRC_DIR BLOB_PREFIX
       upload_azure.py sas ACCOUNT KEY      (prints a read-and-list account SAS)

ENDPOINT is path style (http://127.0.0.1:10000; the account is the first
path segment).  The container is created first; each file SRC_DIR/<rel>
becomes the block blob BLOB_PREFIX/<rel>.  Requests are signed with Shared
Key, written here apart from deltacc's signer (src/format/azsig.c), so that
Azurite's check of the uploads and of deltacc's reads are two checks.
"""
import base64
import email.utils
import hashlib
import hmac
import sys
import urllib.error
import urllib.parse
import urllib.request

import upload                   # beside this file

STD = ["content-encoding", "content-language", "content-length", "content-md5",
       "content-type", "date", "if-modified-since", "if-match", "if-none-match",
       "if-unmodified-since", "range"]


def request(endpoint, account, key, method, path, query, headers, body=b""):
    headers = dict(headers)
    headers["x-ms-date"] = email.utils.formatdate(usegmt=True)
    headers["x-ms-version"] = "2021-12-02"
    headers["Content-Length"] = str(len(body))
    headers["Content-Type"] = "application/octet-stream"  # else urllib adds its own
    low = {k.lower(): v for k, v in headers.items()}
    lines = [method]
    for h in STD:
        v = low.get(h, "")
        lines.append("" if h == "content-length" and v == "0" else v)
    for h in sorted(k for k in low if k.startswith("x-ms-")):
        lines.append(f"{h}:{low[h]}")
    quoted = urllib.parse.quote(path, safe="/")
    res = f"/{account}{quoted}"
    for k in sorted(query):
        res += f"\n{k.lower()}:{query[k]}"
    sts = "\n".join(lines) + "\n" + res
    sig = base64.b64encode(hmac.new(base64.b64decode(key), sts.encode(), hashlib.sha256).digest()).decode()
    headers["Authorization"] = f"SharedKey {account}:{sig}"
    url = endpoint + quoted + ("?" + urllib.parse.urlencode(query) if query else "")
    req = urllib.request.Request(url, data=body if method == "PUT" else None, method=method,
                                 headers=headers)
    with urllib.request.urlopen(req, timeout=30) as r:
        r.read()


def account_sas(account, key):
    """An account SAS for reading and listing blobs until 2099."""
    fields = {"sv": "2021-12-02", "ss": "b", "srt": "sco", "sp": "rl",
              "se": "2099-01-01T00:00:00Z", "spr": "https,http"}
    sts = "\n".join([account, fields["sp"], fields["ss"], fields["srt"], "", fields["se"], "",
                     fields["spr"], fields["sv"], ""]) + "\n"
    fields["sig"] = base64.b64encode(hmac.new(base64.b64decode(key), sts.encode(),
                                              hashlib.sha256).digest()).decode()
    return urllib.parse.urlencode(fields)


def main():
    if sys.argv[1] == "sas":
        print(account_sas(sys.argv[2], sys.argv[3]))
        return
    endpoint, account, key, container, src, prefix = sys.argv[1:7]
    try:
        request(endpoint, account, key, "PUT", f"/{account}/{container}",
                {"restype": "container"}, {})
    except urllib.error.HTTPError as e:
        if e.code != 409:       # ContainerAlreadyExists
            raise
    n = 0
    for blob, data in upload.files(src, prefix):
        request(endpoint, account, key, "PUT", f"/{account}/{container}/{blob}", {},
                {"x-ms-blob-type": "BlockBlob"}, data)
        n += 1
    print(f"{n} blobs")


if __name__ == "__main__":
    main()
