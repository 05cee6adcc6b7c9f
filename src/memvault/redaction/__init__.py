"""The redaction filter: detectors (``rules/``), their checks (``checks/``), policies as TOML
data (``policies/``), and the engine that applies a policy to a text, failing closed."""

from ._engine import MARKER, Configured, Pseudonymizer, Redacted, Redactor, join_and
from ._policy import POLICY_DIR, Policy, load, resolve
from ._report import policy_summary, redact_report
from ._rule import ACTIONS, Action, Finding, Rule, a_label, label
from .checks import VALIDATORS
from .rules import BUILTIN

load_policy = load

__all__ = [
    "ACTIONS",
    "BUILTIN",
    "MARKER",
    "POLICY_DIR",
    "VALIDATORS",
    "Action",
    "Configured",
    "Finding",
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
    "policy_summary",
    "redact_report",
    "resolve",
]
