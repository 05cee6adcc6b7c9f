"""The redaction filter: detectors by concept (``rules/``), the checks that tell a real value
from a look-alike (``checks/``), their word lists (``data/``), policies as TOML data
(``policies/``), and the engine that applies a policy to a text, failing closed. Rules read
the text in a normalized view (:func:`normalized`); findings replace the text as written."""

from ._engine import Pseudonymizer, Redactor
from ._limits import Limits
from ._normal import normalized
from ._policy import POLICY_DIR, Policy, load, resolve
from ._policy_schema import MAX_IDLE_DAYS
from ._redacted import Redacted, join_and
from ._report import policy_summary, redact_report
from ._rule import ACTIONS, Action, Configured, Finding, Rule, a_label, label
from ._spans import MARKER, marker_spans
from .checks import VALIDATORS
from .rules import BUILTIN

load_policy = load

__all__ = [
    "ACTIONS",
    "BUILTIN",
    "MARKER",
    "MAX_IDLE_DAYS",
    "POLICY_DIR",
    "VALIDATORS",
    "Action",
    "Configured",
    "Finding",
    "Limits",
    "Policy",
    "Pseudonymizer",
    "Redacted",
    "Redactor",
    "Rule",
    "a_label",
    "join_and",
    "label",
    "load",
    "load_policy",
    "marker_spans",
    "normalized",
    "policy_summary",
    "redact_report",
    "resolve",
]
