"""The service's own load kit (onyx-dot-app/onyx `loadtest/`) as a tool of `npm run bench:load`.

Not a copy of the kit: the benchmark extracts `loadtest/` from a clone of the onyx repository at
bench time (git archive) and puts it on PYTHONPATH; this file only picks the kit's streaming chat
user (`BasicChatUser`: one streamed send-chat-message per turn, its NDJSON read line by line by the
kit's own parser) and, so that the benchmark can count the streamed requests that ended inside its
steady window, writes the wall-clock end of each successful turn to CHATBENCH_KIT_ENDS (one epoch
time in seconds a line) when Locust quits. The kit's own locustfile is not used: it also imports
the Prometheus exporter and every scenario, which this benchmark does not run.
"""

import os
import time

from locust import events
from onyx_client.chat_user import BasicChatUser  # noqa: F401  (Locust discovers it via globals)

_ends: list[float] = []


@events.request.add_listener
def _on_request(name: str, exception: object = None, **_: object) -> None:
    if name == "chat:total_turn" and exception is None:
        _ends.append(time.time())


@events.quitting.add_listener
def _on_quitting(**_: object) -> None:
    path = os.environ.get("CHATBENCH_KIT_ENDS")
    if path:
        with open(path, "w", encoding="utf-8") as out:
            out.write("".join(f"{t:.6f}\n" for t in _ends))
