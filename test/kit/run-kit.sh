#!/bin/sh
# Runs every user class of the Onyx load-test kit (loadtest/ in onyx-dot-app/onyx) headless against
# a running `chatbench serve`, one short run per class, and prints each class's requests and
# failures from Locust's CSV. Usage: test/kit/run-kit.sh KIT_DIR HOST [SECONDS] [USERS]
# e.g. test/kit/run-kit.sh /tmp/kit/loadtest http://127.0.0.1:8080 10 3
# Debian's python3-locust loads under Debian's python3 (/usr/bin/python3), not another one.
set -eu
KIT=$1
HOST=$2
SECONDS_PER_CLASS=${3:-10}
USERS=${4:-3}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${KIT_OUT:-$(mktemp -d)}
mkdir -p "$OUT"
# prometheus_client is not packaged with python3-locust: a do-nothing stand-in (shim/).
export PYTHONPATH="$HERE/shim"
export ONYX_API_KEY=${ONYX_API_KEY:-onyx_pat_chatbench_demo}
# Short think times so a short run makes many turns; the health probe under the simulator's /api prefix.
export ONYX_WAIT_SECONDS=${ONYX_WAIT_SECONDS:-0.5} ONYX_DR_WAIT_SECONDS=${ONYX_DR_WAIT_SECONDS:-0.5} ONYX_HOG_WAIT_SECONDS=${ONYX_HOG_WAIT_SECONDS:-0.5}
export ONYX_HEALTH_PATH=${ONYX_HEALTH_PATH:-/api/health} ONYX_HEALTH_INTERVAL=${ONYX_HEALTH_INTERVAL:-0.5}
# Multi-turn users keep a session this many turns (the kit's 20 and 60 need minutes per session).
export ONYX_SESSION_TURNS=${ONYX_SESSION_TURNS:-4}
CLASSES=${KIT_CLASSES:-"BasicChatUser ChatWithSearchUser MultiToolUser DeepResearchUser LongConversationUser DisconnectUser CompressionUser FileAttachmentUser ThreadHogUser HealthProbeUser"}
cd "$KIT"
printf '%-22s %8s %8s\n' class requests failures
for class in $CLASSES; do
  # Locust's own exit code is 1 when any request failed; the CSV says which.
  /usr/bin/python3 -m locust -f locustfile.py --headless -u "$USERS" -r "$USERS" -t "${SECONDS_PER_CLASS}s" \
    -H "$HOST" --csv "$OUT/$class" --only-summary --stop-timeout 5 "$class" >"$OUT/$class.log" 2>&1 || true
  /usr/bin/python3 - "$OUT/${class}_stats.csv" "$class" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["Name"] == "Aggregated"]
r = rows[0] if rows else {"Request Count": "0", "Failure Count": "0"}
print(f'{sys.argv[2]:<22} {r["Request Count"]:>8} {r["Failure Count"]:>8}')
PY
done
echo "CSV and logs: $OUT"
