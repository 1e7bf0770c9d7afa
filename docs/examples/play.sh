#!/usr/bin/env bash
# Usage: B=http://127.0.0.1:8000 TOKEN=... M=<match id> bash docs/examples/play.sh
set -euo pipefail
# Play until the end: always take the first legal action, with the first value of each domain.
while true; do
  VIEW=$(curl -s "$B/api/matches/$M/" -H "Authorization: Bearer $TOKEN")
  [ "$(echo "$VIEW" | jq -r .status)" = "active" ] || break
  ACTION=$(echo "$VIEW" | jq -c '.legal_actions[0] | {type} + (.params | map_values(
            if .one_of then .one_of[0] elif .subset_of then .subset_of[:.min] else .range[0] end))')
  curl -s -X POST "$B/api/matches/$M/actions/" -H "Authorization: Bearer $TOKEN" \
       -H 'Content-Type: application/json' \
       -d "$(echo "$ACTION" | jq -c --argjson v "$(echo "$VIEW" | jq .version)" '. + {expected_version: $v}')" \
       | jq -c '{version, sent: '"$ACTION"', life: .view.public.life}'
done
echo "$VIEW" | jq -c '{status, placements, end_reason}'
