"""Checks that tell a real value from a look-alike: checksums, national id rules, entropy,
and the secret-shaped tests the detectors name."""

from ._validators import VALIDATORS

__all__ = ["VALIDATORS"]
