"""A small documents app in Python, with the standard library only, whose permissions are decided by the
typed-permissions decision service (npm start). It keeps its users and documents in memory, decides who owns
what itself, and asks the service everything else: may this user read this document, and which attributes may
they see.

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


def documents_owned_by(user):
    """The listOwned method the definitions name (documentsOwnedBy): the ids of the documents the user owns."""
    return [document["id"] for document in DOCUMENTS.values() if document["ownerId"] == user["id"]]


LIST_OWNED = {"documentsOwnedBy": documents_owned_by}


class HttpError(Exception):
    """An answer other than 200, with its status and message."""

    REASONS = {400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 500: "Internal Server Error", 503: "Service Unavailable"}

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.body = {"statusCode": status, "error": self.REASONS[status], "message": message}


def ask_service(checks, policy_version=None):
    """POST /v1/check: one answer per check, in order. Any failure is a 503: nothing is granted by an error."""
    body = {"checks": checks} if policy_version is None else {"policyVersion": policy_version, "checks": checks}
    request = urllib.request.Request(
        SERVICE_URL + "/v1/check",
        data=json.dumps(body).encode(),
        headers={"authorization": "Bearer " + TOKEN, "content-type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return json.load(response)["answers"]
    except (OSError, ValueError, KeyError) as error:
        print(f"the decision service could not answer: {error}", file=sys.stderr)
        raise HttpError(503, "The permissions service could not answer; try again later.") from error


def decide(user, action, document_ids):
    """The service's final answer for each document: asked once, then again with the ownership groups that own it.
    One request holds at most 1,000 checks (the service's limit): page longer lists."""
    checks = [{"user": user, "resource": "document", "action": action, "resourceId": i} for i in document_ids]
    answers = ask_service(checks)
    if not any(answer["needsOwnership"] for answer in answers):
        return answers
    # Who owns a document decides: the answers name the user's ownership groups and the method that decides each.
    # Run them here, next to the data, once per method.
    owned = {}
    for answer in answers:
        for group in answer["ownership"]:
            method = group.get("listOwned")
            if method not in LIST_OWNED:
                raise HttpError(500, "The policy names an ownership method this app does not have.")
            owned.setdefault(method, set(LIST_OWNED[method](user)))
    for check, answer in zip(checks, answers):
        check["ownedBy"] = [group["group"] for group in answer["ownership"] if check["resourceId"] in owned[group["listOwned"]]]
    # The same policy version: group numbers belong to the version that named them.
    return ask_service(checks, answers[0]["policyVersion"])


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
