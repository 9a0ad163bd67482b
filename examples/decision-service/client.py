"""A small documents app in Python, with the standard library only, whose permissions are decided by the
typed-permissions decision service (npm start). It keeps its users and documents in memory and asks the service,
sending each document's owner along: may this user read this document, and which attributes may they see. The
service evaluates the policy's ownership rule on what it is sent; the app writes no ownership code.

    python3 client.py                                    # listens on http://127.0.0.1:8000 (APP_PORT)
    curl -H 'x-user-id: 1' http://127.0.0.1:8000/documents/1

GET /documents lists the documents with the attributes each caller may see; GET /documents/<id> reads one:
200, 403 (not granted), 404, 400 (an id that is not a whole number), 401 (an x-user-id that is no user's).
"""

import json
import os
import re
import sys
import traceback
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SERVICE_URL = os.environ.get("DECISION_SERVICE_URL", "http://127.0.0.1:3100")
with open("decision-tokens", encoding="utf-8") as tokens:
    TOKEN = tokens.readline().strip()

# Who calls: the x-user-id header stands in for your authentication. A request without one gets a
# placeholder user whose role has definitions of its own.
USERS = {1: {"id": 1, "roles": ["EMPLOYEE"]}, 2: {"id": 2, "roles": ["EMPLOYEE"]}, 3: {"id": 3, "roles": ["MANAGER"]}}
ANONYMOUS = {"id": 0, "roles": ["ANONYMOUS"]}

DOCUMENTS = {
    1: {"id": 1, "title": "Travel policy", "text": "Trains under 700 km.", "ownerId": 1, "confidential": "Reviewed by legal."},
    2: {"id": 2, "title": "Team offsite", "text": "Lisbon, 12 to 14 May.", "ownerId": 2, "confidential": "Budget: 9,000 EUR."},
    3: {"id": 3, "title": "Onboarding", "text": "Laptops on day one.", "ownerId": 1, "confidential": "Two hires in June."},
}


# The attributes of a document that the policy's ownership rule reads (documentOwner, in document.resource.json):
# each check carries them, and the service decides ownership on them. Only these: the rest of a document, its
# confidential note first, is none of the service's business. A policy whose rules read another attribute is refused
# by the service (400, naming it), which this app answers 503: nothing is granted on a record sent short.
RULE_ATTRIBUTES = ("id", "ownerId")


class HttpError(Exception):
    """An answer other than 200, with its status and message."""

    REASONS = {400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 500: "Internal Server Error", 503: "Service Unavailable"}

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.body = {"statusCode": status, "error": self.REASONS[status], "message": message}


class RefuseRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect is refused, never followed: an answer from elsewhere decides nothing, and the token goes nowhere else."""

    def redirect_request(self, request, fp, code, msg, headers, new_url):
        raise urllib.error.HTTPError(request.full_url, code, f"a redirect to {new_url}, not followed", headers, fp)


# The opener every request to the service goes through: urllib's own, but a redirect is an error (and so a 503).
SERVICE = urllib.request.build_opener(RefuseRedirects)


def ask_service(checks):
    """POST /v1/check: one answer per check, in order. Any failure is a 503: nothing is granted by an error, a redirect,
    an answer other than 200 or a number of answers that is not the number of checks."""
    request = urllib.request.Request(
        SERVICE_URL + "/v1/check",
        data=json.dumps({"checks": checks}).encode(),
        headers={"authorization": "Bearer " + TOKEN, "content-type": "application/json"},
    )
    try:
        with SERVICE.open(request, timeout=5) as response:
            if response.status != 200:
                raise ValueError(f"it answered {response.status}, not 200")
            answers = json.load(response)["answers"]
        if not isinstance(answers, list) or len(answers) != len(checks):
            counted = len(answers) if isinstance(answers, list) else "no list of"
            raise ValueError(f"it answered {counted} answers to {len(checks)} checks")
        return answers
    except urllib.error.HTTPError as error:
        # A refusal's detail says what was wrong with the request (a record without an attribute a rule reads); a
        # redirect has no body, its reason says where it pointed.
        print(f"the decision service refused: {error.code} {error.read(2048).decode(errors='replace') or error.reason}", file=sys.stderr)
        raise HttpError(503, "The permissions service could not answer; try again later.") from error
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"the decision service could not answer: {error}", file=sys.stderr)
        raise HttpError(503, "The permissions service could not answer; try again later.") from error


def decide(user, action, document_ids):
    """The service's final answer for each document, in one request: each check carries the document's record, on
    which the service evaluates the ownership rule. A document that does not exist has no record: its answer names
    the rule and grants nothing that needs an owner. One request holds at most 1,000 checks (the service's limit):
    page longer lists."""
    checks = []
    for document_id in document_ids:
        check = {"user": user, "resource": "document", "action": action, "resourceId": document_id}
        if document_id in DOCUMENTS:
            check["record"] = {name: DOCUMENTS[document_id][name] for name in RULE_ATTRIBUTES}
        checks.append(check)
    answers = ask_service(checks)
    # Groups decided by ownership methods would need the app to run them and ask again with ownedBy: this app has
    # none, so a policy that names one is a mistake to fix, not a question to guess at.
    if any("rule" not in group for answer in answers for group in answer["ownership"]):
        raise HttpError(500, "The policy names an ownership method; this app declares ownership by a rule only.")
    return answers


def pick(record, patterns):
    """The attributes of the record the patterns keep, applied in order: '*' all, 'name' keeps, '!name' drops."""
    keep_all, flipped = False, set()
    for pattern in patterns:
        keep = not pattern.startswith("!")
        name = (pattern if keep else pattern[1:]).removesuffix(".*")
        if name == "*":
            keep_all, flipped = keep, set()
        elif "." in name:
            raise HttpError(500, "The policy names a nested attribute; this app's documents have none.")
        elif keep == keep_all:
            flipped.discard(name)
        else:
            flipped.add(name)
    return {key: value for key, value in record.items() if (key in flipped) != keep_all}


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        try:
            status, body = 200, self.answer()
        except HttpError as error:
            status, body = error.status, error.body
        except Exception:  # a bug: logged here, answered 500 with nothing of it
            traceback.print_exc()
            status, body = 500, HttpError(500, "Internal server error.").body
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def answer(self):
        header = self.headers.get("x-user-id")
        user = ANONYMOUS if header is None else USERS.get(int(header)) if re.fullmatch(r"[1-9][0-9]{0,8}", header) else None
        if user is None:
            raise HttpError(401, "x-user-id must be the id of a user.")
        if self.path == "/documents":
            ids = sorted(DOCUMENTS)
            answers = decide(user, "list", ids)
            return [pick(DOCUMENTS[i], answer["attributes"]) for i, answer in zip(ids, answers) if answer["granted"]]
        match = re.fullmatch(r"/documents/([^/?#]+)", self.path)
        if match is None:
            raise HttpError(404, "No such route.")
        # Ids are whole numbers (the definitions' idType): anything else is refused before the service is asked.
        if not re.fullmatch(r"[1-9][0-9]{0,8}", match[1]):
            raise HttpError(400, f"{json.dumps(match[1])} is not a document id: ids are whole numbers.")
        document_id = int(match[1])
        [answer] = decide(user, "read", [document_id])
        if not answer["granted"]:
            raise HttpError(403, "read on document is not granted")
        if document_id not in DOCUMENTS:
            raise HttpError(404, f"No document {document_id}.")
        return pick(DOCUMENTS[document_id], answer["attributes"])


server = ThreadingHTTPServer(("127.0.0.1", int(os.environ.get("APP_PORT", "8000"))), Handler)
print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
server.serve_forever()
