#!/bin/sh
# Asks the decision service (npm start) with curl whether user 1, an employee, may read documents 1 and 2: first
# sending each document's record (its id and ownerId, what the ownership rule documentOwner reads), so that the
# service decides ownership and answers finally; then without a record, when the answer names the rule instead.
set -eu
SERVICE_URL="${DECISION_SERVICE_URL:-http://127.0.0.1:3100}"
TOKEN="$(head -n 1 decision-tokens)"

check() {
  curl -sS --fail-with-body "$SERVICE_URL/v1/check" -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' -d "$1"
  echo
}

check '{ "checks": [
  { "user": { "id": 1, "roles": ["EMPLOYEE"] }, "resource": "document", "action": "read", "resourceId": 1, "record": { "id": 1, "ownerId": 1 } },
  { "user": { "id": 1, "roles": ["EMPLOYEE"] }, "resource": "document", "action": "read", "resourceId": 2, "record": { "id": 2, "ownerId": 2 } }
] }'
check '{ "checks": [{ "user": { "id": 1, "roles": ["EMPLOYEE"] }, "resource": "document", "action": "read", "resourceId": 1 }] }'
