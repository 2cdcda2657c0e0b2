"""An invoices API in Python that accepts Tessera access tokens, verified with Authlib's JWT and JWKS support.

FastAPI serves it; each request's bearer token must be an access token (header typ at+jwt) signed with RS256
by a key of the org's key set (found through discovery, refetched when a token names a new key), from the
issuer, for this API (its resource indicator in aud), unexpired. Then each route checks its scope.
See README.md for how to run it against a local Tessera.
"""

import json
import logging
import os
import socket
import threading
import time
import urllib.request

import uvicorn
from authlib.jose import JsonWebKey, JsonWebToken
from authlib.jose.errors import JoseError
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

ISSUER = os.environ.get("TESSERA_ISSUER", "http://localhost:4000/o/acme/")  # exact iss, trailing slash included
PORT = int(os.environ.get("PORT", "3004"))
RESOURCE = os.environ.get("RESOURCE", f"http://localhost:{PORT}/invoices")  # as registered in Tessera
MAX_TOKEN = 8192

log = logging.getLogger("invoices")
logging.basicConfig(level=logging.INFO, format="%(message)s")


def fetch_json(url):
    with urllib.request.urlopen(url, timeout=5) as response:  # noqa: S310 (the issuer's own https URLs)
        return json.load(response)


class KeySet:
    """The issuer's keys: fetched on first use, kept ten minutes, refetched (at most every 30 s) for a new kid."""

    def __init__(self, issuer):
        self.jwks_uri = fetch_json(f"{issuer}.well-known/openid-configuration")["jwks_uri"]
        self.keys = None
        self.fetched = 0.0
        self.lock = threading.Lock()

    def _refresh(self):
        self.keys = JsonWebKey.import_key_set(fetch_json(self.jwks_uri))
        self.fetched = time.monotonic()

    def key_for(self, header, _payload):
        kid = header.get("kid")
        with self.lock:
            age = time.monotonic() - self.fetched
            if self.keys is None or age > 600:
                self._refresh()
            try:
                return self.keys.find_by_kid(kid)
            except ValueError:
                if age < 30:
                    raise
                self._refresh()
                return self.keys.find_by_kid(kid)


jwt = JsonWebToken(["RS256"])  # no other algorithm, so never "none" or an HMAC keyed with a public key
keys = KeySet(ISSUER)
CLAIMS = {
    "iss": {"essential": True, "value": ISSUER},
    "aud": {"essential": True, "value": RESOURCE},  # aud is [client id, resource]: it must name this API
    "exp": {"essential": True},
    "sub": {"essential": True},
}


class Refused(Exception):
    def __init__(self, status, body, challenge):
        self.status, self.body, self.challenge = status, body, challenge


def unauthorized(request, sent, reason):
    # The reason goes to this log only, never the token; the answer is the same for every reason.
    log.warning("401 %s %s: %s", request.method, request.url.path, reason)
    challenge = 'Bearer realm="invoices"' + (', error="invalid_token"' if sent else "")
    return Refused(401, {"error": "unauthorized", "error_detail": "we don't know who you are"}, challenge)


def principal(request, scope):
    """The verified token's claims when it holds `scope`; raises Refused (401 or 403) otherwise."""
    header = request.headers.get("authorization", "")
    if header[:7].lower() != "bearer " or not header[7:].strip():
        raise unauthorized(request, False, "no bearer token")
    token = header[7:].strip()
    if len(token) > MAX_TOKEN or token.count(".") != 2:
        raise unauthorized(request, True, "not a compact JWS")
    try:
        claims = jwt.decode(token, keys.key_for, claims_options=CLAIMS)
        claims.validate(leeway=0)
    except (JoseError, ValueError) as error:
        raise unauthorized(request, True, type(error).__name__) from None
    if claims.header.get("typ", "").lower() not in ("at+jwt", "application/at+jwt"):
        raise unauthorized(request, True, "not an access token (header typ)")  # an ID token, say
    if claims.get("typ") not in ("user", "client"):
        raise unauthorized(request, True, "not a user or machine token")
    if scope not in str(claims.get("scope", "")).split():
        raise Refused(
            403,
            {"error": "insufficient_scope", "error_detail": f"this token lacks the {scope} scope"},
            f'Bearer realm="invoices", error="insufficient_scope", scope="{scope}"',
        )
    return claims


def caller(claims):
    if claims["typ"] == "user":
        return {"user": claims["sub"], "tenant": claims.get("tnt")}
    return {"client": claims["sub"]}


app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)


@app.exception_handler(Refused)
async def refused(_request, refusal):
    return JSONResponse(refusal.body, status_code=refusal.status, headers={"WWW-Authenticate": refusal.challenge})


@app.get("/health")
def health():
    return {"ok": True}


@app.get("/invoices")
def list_invoices(request: Request):
    claims = principal(request, "invoices:read")
    return {"caller": caller(claims), "invoices": [{"id": "inv_1", "amount": 4200, "currency": "EUR"}]}


@app.post("/invoices", status_code=201)
def create_invoice(request: Request):
    claims = principal(request, "invoices:write")
    return {"caller": caller(claims), "created": True}


if __name__ == "__main__":
    # Listening before saying so: a request sent after the line below waits in the queue, never refused.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", PORT))
    sock.listen(128)
    print(f"invoices API on http://localhost:{PORT}", flush=True)
    uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])
