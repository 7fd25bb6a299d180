"""Every user class of the Onyx load-test kit, one user each, in one Locust run.

Locust spreads -u users over classes by weight (BasicChatUser 70, ...), so a short run would leave
most classes without a user. This file imports the kit's own locustfile unchanged and pins each
class to exactly one user (Locust's fixed_count). Run it from the kit's directory:
    PYTHONPATH=<kit>:<this dir>/shim /usr/bin/python3 -m locust -f <this file> --headless -u 10 ...
"""

from locustfile import (  # noqa: F401  (the kit's entrypoint: also registers its exporter)
    BasicChatUser,
    ChatWithSearchUser,
    CompressionUser,
    DeepResearchUser,
    DisconnectUser,
    FileAttachmentUser,
    HealthProbeUser,
    LongConversationUser,
    MultiToolUser,
    ThreadHogUser,
)



def _pin_one_user_each() -> None:
    # A function, not a module-level loop: a loop variable left in the module's globals would be
    # one more user class to Locust (a duplicate name).
    for cls in (
        BasicChatUser, ChatWithSearchUser, CompressionUser, DeepResearchUser, DisconnectUser,
        FileAttachmentUser, HealthProbeUser, LongConversationUser, MultiToolUser, ThreadHogUser,
    ):
        cls.fixed_count = 1


_pin_one_user_each()
