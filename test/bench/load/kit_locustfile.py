"""The service's own load kit (onyx-dot-app/onyx `loadtest/`) as a tool of `npm run bench:load`.

Not a copy of the kit: the benchmark extracts `loadtest/` from a clone of the onyx repository at
bench time (git archive) and puts it on PYTHONPATH; this file only picks the kit's streaming chat
user (`BasicChatUser`: one streamed send-chat-message per turn, its NDJSON read line by line by the
kit's own parser) and, so that the benchmark can count the streamed requests that ended inside its
steady window, writes the wall-clock end of each successful turn to CHATBENCH_KIT_ENDS (one epoch
time in seconds a line) when Locust quits. The kit's own locustfile is not used: it also imports
the Prometheus exporter and every scenario, which this benchmark does not run.

For the timing comparison against a truth server (test/bench/load/truth.ts), CHATBENCH_KIT_TIMINGS
names a file that gets, per successful turn, the assistant message id the stream reserved and the
kit's own first-packet and first-answer-token times (its milestone events' response_time, ms), so
each can be paired with the server's log of that response. The kit fires its milestones from the
user's greenlet, so they are gathered per greenlet; the message id is read from the kit's stream
analyzer in the turn's frame (the kit passes it to no event), without changing the kit.
"""

import os
import sys
import time

import gevent
from locust import events
from onyx_client.chat_user import BasicChatUser  # noqa: F401  (Locust discovers it via globals)

_ends: list[float] = []
_turns: dict[object, dict[str, float]] = {}
_timings: list[str] = []


def _message_id() -> object:
    frame = sys._getframe()
    while frame is not None:
        if frame.f_code.co_name == "chat_turn" and "analyzer" in frame.f_locals:
            return frame.f_locals["analyzer"].summary.reserved_assistant_message_id
        frame = frame.f_back
    return None


@events.request.add_listener
def _on_request(name: str, response_time: float = 0.0, exception: object = None, **_: object) -> None:
    turn = _turns.setdefault(gevent.getcurrent(), {})
    if name == "chat:first_packet":
        turn["ttfp"] = response_time
    elif name == "chat:first_answer_token":
        turn["ttft"] = response_time
    elif name == "chat:total_turn":
        _turns.pop(gevent.getcurrent(), None)
        if exception is None:
            _ends.append(time.time())
            message_id = _message_id()
            if message_id is not None:
                _timings.append(f"{message_id} {turn.get('ttfp', '-')} {turn.get('ttft', '-')}\n")


@events.quitting.add_listener
def _on_quitting(**_: object) -> None:
    path = os.environ.get("CHATBENCH_KIT_ENDS")
    if path:
        with open(path, "w", encoding="utf-8") as out:
            out.write("".join(f"{t:.6f}\n" for t in _ends))
    timings = os.environ.get("CHATBENCH_KIT_TIMINGS")
    if timings:
        with open(timings, "w", encoding="utf-8") as out:
            out.write("".join(_timings))
