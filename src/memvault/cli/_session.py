"""The conversation ``memvault demo`` plays: the memory tool documentation's
customer-service example, as data.

The support team's guidelines are in memory before it starts. A user asks for
help with a ticket; Claude views ``/memories``, reads the guidelines and the
refund policy, keeps a note on the ticket (with the customer's e-mail address,
card number and API key in it, as an agent would copy them) and answers. The
endpoint checks each tool result on the way: a change in what memvault returns
stops the demo with the endpoint's complaint.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..agent import Turn

USER = "support-desk"
SESSION = "demo-ticket-4711"

EMAIL = "jane.doe@acme-health.io"
CARD = "4111 1111 1111 1111"
API_KEY = "AKIAQ3EGRT5XJ7KLMN2P"
NOTE_PATH = "/memories/tickets/4711.md"

# Written before the conversation, as the team's earlier sessions (or `memvault import`) would.
SEEDS = {
    "/memories/customer_service_guidelines.xml": """\
<guidelines>
<addressing_customers>
- Always address customers by their first name
- Use empathetic language
- Acknowledge the problem before offering a solution
</addressing_customers>
<security>
- Never repeat a card number, password or API key back to a customer
- When a customer sends a secret, ask them to rotate it
</security>
<signing_off>
- Sign as "Acme Support"
</signing_off>
</guidelines>
""",
    "/memories/refund_policies.xml": """\
<refund_policies>
<duplicate_charges>
- Refund a duplicate charge in full, without asking for proof
- The refund reaches the card within 5-10 business days
</duplicate_charges>
<other_requests>
- Anything else above $500 goes to the billing team
</other_requests>
</refund_policies>
""",
}

TICKET = f"""\
Help me respond to this customer service ticket.

Ticket #4711 from Jane Doe <{EMAIL}>:
"I was charged twice for my March invoice, on my card {CARD}.
Since your update our integration fails; the key we use is {API_KEY}.
Please sort this out today.\""""

NOTE = f"""\
# Ticket 4711: Jane Doe, billing and integration
- contact: {EMAIL}
- card: {CARD}, charged twice for the March invoice: refund the duplicate in full
- integration key: {API_KEY}, failing since the update: she should rotate it
- next: confirm the refund, then follow up on the integration
"""

ANSWER = """\
Here is a reply you can send:

Hi Jane,

I'm sorry you were charged twice for your March invoice. I have refunded the duplicate \
charge in full; it will reach your card within 5-10 business days.

About the integration: please rotate the key you sent us, since it travelled in plain \
text, and reply with a time that suits you: we will get the integration working again \
with the new one.

Acme Support

I kept a note on the ticket for the follow-up; the vault filtered the e-mail address, \
the card number and the key out of it before storing it."""

# Strings that must appear nowhere in the home's bytes: the secrets, the note's
# words, the file and directory names, and the user's name.
ON_DISK = (
    ("the e-mail address", EMAIL),
    ("the card number", CARD),
    ("the card number without spaces", CARD.replace(" ", "")),
    ("the API key", API_KEY),
    ("the note's text", "charged twice for the March invoice"),
    ("a file name", "customer_service_guidelines"),
    ("the user's name", USER),
)
ON_DISK_TEXT = (
    "the e-mail address, the card number (with and without spaces), the API key, "
    "the note's text, a file name and the user's name"
)


def turns() -> list[Turn]:
    """Claude's side of the conversation, with what each request must carry."""
    from ..agent import Turn, ok

    guidelines, refunds = SEEDS
    return [
        Turn(
            text="I'll help you respond to the customer service ticket. "
            "Let me check my memory for any previous context.",
            calls=({"command": "view", "path": "/memories"},),
            user="Ticket #4711",
        ),
        Turn(
            calls=(
                {"command": "view", "path": guidelines},
                {"command": "view", "path": refunds},
            ),
            results=(ok("customer_service_guidelines.xml"),),
        ),
        Turn(
            text="Your guidelines say to use her first name and to ask her to rotate the key; "
            "duplicate charges are refunded in full. I'll keep a note for the follow-up.",
            calls=({"command": "create", "path": NOTE_PATH, "file_text": NOTE},),
            results=(ok("address customers by their first name"), ok("in full")),
        ),
        Turn(text=ANSWER, results=(ok(f"File created successfully at: {NOTE_PATH}\n\nNote: "),)),
    ]
