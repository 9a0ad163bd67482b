#!/bin/sh
# Asks the decision service (npm start) with curl whether user 1, an employee, may read document 1: first
# without saying who owns it, then saying that ownership group 0 owns it (as documentsOwnedBy answers).
set -eu
SERVICE_URL="${DECISION_SERVICE_URL:-http://127.0.0.1:3100}"
TOKEN="$(head -n 1 decision-tokens)"

check() {
  curl -sS --fail-with-body "$SERVICE_URL/v1/check" -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' -d "$1"
  echo
}

check '{ "checks": [{ "user": { "id": 1, "roles": ["EMPLOYEE"] }, "resource": "document", "action": "read", "resourceId": 1 }] }'
check '{ "checks": [{ "user": { "id": 1, "roles": ["EMPLOYEE"] }, "resource": "document", "action": "read", "resourceId": 1, "ownedBy": [0] }] }'
