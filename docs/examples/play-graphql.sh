#!/usr/bin/env bash
# Usage: B=http://127.0.0.1:8000 TOKEN=... M=<match id> bash docs/examples/play-graphql.sh
# Play until the end through GraphQL: always the first legal action, the first value of each
# domain, with the version seen.
set -euo pipefail
gql() {  # gql QUERY [VARIABLES]: POST a document to /graphql/ with the token
  curl -s "$B/graphql/" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
       -d "$(jq -cn --arg q "$1" --argjson v "${2:-{\}}" '{query: $q, variables: $v}')"
}
VIEW_Q='query($id: ID!) { match(id: $id) { status version legalActions { type params } placements endReason } }'
ACT_Q='mutation($id: ID!, $a: JSON!, $v: Int) { act(matchId: $id, action: $a, expectedVersion: $v) { version public } }'
while true; do
  VIEW=$(gql "$VIEW_Q" "$(jq -cn --arg id "$M" '{id: $id}')" | jq .data.match)
  [ "$(echo "$VIEW" | jq -r .status)" = "active" ] || break
  if [ "$(echo "$VIEW" | jq '.legalActions | length')" = 0 ]; then sleep 0.3; continue; fi  # bots think
  ACTION=$(echo "$VIEW" | jq -c '.legalActions[0] | {type} + (.params | map_values(
            if .one_of then .one_of[0] elif .subset_of then .subset_of[:.min] else .range[0] end))')
  gql "$ACT_Q" "$(jq -cn --arg id "$M" --argjson a "$ACTION" --argjson v "$(echo "$VIEW" | jq .version)" \
        '{id: $id, a: $a, v: $v}')" | jq -c '{version: .data.act.version, sent: '"$ACTION"', life: .data.act.public.life, errors}'
done
echo "$VIEW" | jq -c '{status, placements, endReason}'
