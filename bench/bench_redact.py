"""Throughput and added latency of the redaction filter, against detect-secrets.

    .venv/bin/python bench/bench_redact.py            # full run
    .venv/bin/python bench/bench_redact.py --quick    # fewer notes and repeats

Input is the labeled corpus (tests/corpus/samples.jsonl), and for ordinary notes the
2 KB notes the command benchmarks write (bench_commands.note_text). memvault runs
``Redactor.apply`` under the default policy with private keys redacted rather
than blocked (a block stops at the first key and would time less work).
detect-secrets runs in-process the way it is used on a repository: per file,
``detect_secrets.core.scan.scan_file`` under ``default_settings()``, on each
note written beforehand to a temporary file named for its format (.env, .yaml,
.py, ...), so its timings include reading that file but not writing it. Its
ad-hoc ``scan_line`` is not used: it turns the entropy filters off and reports
every token. Both tools see the same text in the same run. Prints figures;
asserts nothing.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_commands import note_text  # noqa: E402

from memvault.redaction import (  # noqa: E402
    Redactor,
    load,
    resolve,
)

CORPUS = ROOT / "tests" / "corpus" / "samples.jsonl"
SECRET_KINDS = (
    "api_key",
    "password",
    "private_key",
    "credential",
    "auth_header",
    "cookie",
    "jwt",
    "secret",
)
NOTE_BYTES = 2048
MB = 1_000_000  # throughput is in 10^6 bytes of UTF-8 per second
# Targets: median microseconds per 2 KB note, ordinary and dense, and the least ratio of
# memvault's throughput to detect-secrets' on the corpus notes.
ORDINARY_MEDIAN_US = 50
DENSE_MEDIAN_US = 600
MIN_RATIO = 20


def redactor() -> Redactor:
    text = resolve(None).read_text(encoding="utf-8")
    text, n = re.subn(r"(?m)^private_key\s*=.*$", 'private_key = "redact"', text)
    if not n:
        text = 'version = 1\n\n[detectors]\nprivate_key = "redact"\n'
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.toml"
        path.write_text(text, encoding="utf-8")
        return load(path).redactor


def pseudonym(kind: str, value: str) -> str:
    return hashlib.sha256(f"{kind}\0{value}".encode()).hexdigest()[:10]


def notes_of(text: str, size: int, limit: int) -> list[str]:
    """Consecutive pieces of ``text`` of ``size`` UTF-8 bytes (cut on character boundaries)."""
    raw = text.encode()
    out, at = [], 0
    while at + size <= len(raw) and len(out) < limit:
        end = at + size
        while end > at and (raw[end] & 0xC0) == 0x80:
            end -= 1
        out.append(raw[at:end].decode())
        at = end
    return out


def without_values(sample: dict) -> str:
    """A corpus note with every value that must go taken out: the same formats, languages
    and look-alikes, as most notes an agent writes (they hold no secret at all)."""
    text = sample["text"]
    for value in sorted((g["value"] for g in sample["must_go"]), key=len, reverse=True):
        text = text.replace(value, "n/a")
    return text


def throughput(
    run: Callable[[str], object], texts: list[str], repeats: int, size: int = 0
) -> float:
    """Best MB/s of ``repeats`` passes over ``texts`` (or the files they name, of ``size``)."""
    size = size or sum(len(t.encode()) for t in texts)
    best = float("inf")
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        for t in texts:
            run(t)
        best = min(best, time.perf_counter() - start)
    return size / best / MB


def latencies(run: Callable[[str], object], notes: list[str]) -> tuple[float, float]:
    """Median and p99 (nearest rank) microseconds per note."""
    times = []
    gc.collect()
    gc.disable()
    try:
        for note in notes:
            start = time.perf_counter_ns()
            run(note)
            times.append((time.perf_counter_ns() - start) / 1000)
    finally:
        gc.enable()
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(0.99 * len(times)))]


SUFFIX = {
    "env": ".env", "yaml": ".yaml", "compose": ".yaml", "k8s": ".yaml", "json": ".json",
    "toml": ".toml", "ini": ".ini", "code": ".py", "shell": ".sh", "log": ".log",
}  # fmt: skip


class DetectSecrets:
    """detect-secrets' file scanner over notes written to a temporary directory."""

    def __init__(self, directory: Path) -> None:
        from detect_secrets.core.scan import scan_file
        from detect_secrets.settings import default_settings

        self._scan = scan_file
        self._settings = default_settings()
        self._settings.__enter__()
        self._dir = directory
        self._count = 0

    def write(self, text: str, doc: str = "") -> str:
        self._count += 1
        path = self._dir / f"note{self._count}{SUFFIX.get(doc, '.txt')}"
        path.write_text(text, encoding="utf-8")
        return str(path)

    def scan(self, path: str) -> list[tuple[int, str]]:
        """(0-based line, secret value) of every finding."""
        return [(s.line_number - 1, s.secret_value or "") for s in self._scan(path)]


def spans(text: str, value: str) -> list[tuple[int, int]]:
    out, at = [], text.find(value)
    while at >= 0:
        out.append((at, at + len(value)))
        at = text.find(value, at + 1)
    return out


def detect_secrets_quality(ds: DetectSecrets, samples: list[dict], paths: list[str]) -> None:
    """Flagged secrets and touched look-alikes; a finding is its value's span on its line."""
    go, hit, stay, touched = Counter(), Counter(), 0, 0
    for sample, path in zip(samples, paths, strict=True):
        text = sample["text"]
        starts = [0]
        for line in text.split("\n"):
            starts.append(starts[-1] + len(line) + 1)
        found = []
        for number, value in ds.scan(path):
            line = text[starts[number] : starts[number + 1]]
            at = line.find(value) if value else -1
            if at < 0:
                found.append((starts[number], starts[number + 1]))
            else:
                found.append((starts[number] + at, starts[number] + at + len(value)))
        for g in sample["must_go"]:
            if g["kind"] not in SECRET_KINDS:
                continue
            go[g["kind"]] += 1
            places = spans(text, g["value"])
            if places and all(any(s < fe and fs < e for fs, fe in found) for s, e in places):
                hit[g["kind"]] += 1
        for value in sample["must_stay"]:
            stay += 1
            if any(s < fe and fs < e for s, e in spans(text, value) for fs, fe in found):
                touched += 1
    print("\ndetect-secrets on the corpus (a secret counts as found if a finding overlaps it):")
    for kind in SECRET_KINDS:
        print(f"  {kind:<12} {hit[kind]:>4}/{go[kind]:<4} {hit[kind] / max(go[kind], 1):>6.1%}")
    total = sum(go.values())
    print(
        f"  {'secrets':<12} {sum(hit.values()):>4}/{total:<4} "
        f"{sum(hit.values()) / max(total, 1):>6.1%}"
    )
    print(f"  look-alikes flagged: {touched}/{stay} {touched / max(stay, 1):.1%}")


class _Recorder:
    """Stands in for an RE2 call and notes its arguments, to replay them alone later."""

    def __init__(self, call: Callable[..., object], log: list[tuple[Callable[..., object], tuple]]):
        self.call, self.log = call, log

    def __call__(self, *args: object) -> object:
        self.log.append((self.call, args))
        return self.call(*args)


def engine_floor(red: Redactor, notes: list[str]) -> tuple[float, float]:
    """Median microseconds per note of ``apply``, and of the RE2 calls it makes alone.

    Every RE2 call one ``apply`` makes (the first-pass sets and each rule's searches, in
    both passes) is recorded, then replayed in a bare loop: what is left of the time is
    Python, deciding what the engine's matches are.
    """
    log: list[tuple[Callable[..., object], tuple]] = []
    gates = [*red._gates, *([red._words] if red._words else [])]
    saved_sets = [g._match for g in gates]
    saved_compiled = list(red._compiled)
    for gate in gates:
        gate._match = _Recorder(gate._match, log)
    red._compiled = [
        None if compiled is None else (_Recorder(compiled[0], log), compiled[1])
        for compiled in red._compiled
    ]
    calls = []
    try:
        for note in notes:
            log.clear()
            red.apply(note, pseudonym)
            calls.append(list(log))
    finally:
        for gate, saved in zip(gates, saved_sets, strict=True):
            gate._match = saved
        red._compiled = saved_compiled
    whole, engine = [], []
    for note, replay in zip(notes, calls, strict=True):
        gc.disable()
        start = time.perf_counter_ns()
        red.apply(note, pseudonym)
        middle = time.perf_counter_ns()
        for call, args in replay:
            call(*args)
        end = time.perf_counter_ns()
        gc.enable()
        whole.append((middle - start) / 1000)
        engine.append((end - middle) / 1000)
    return statistics.median(whole), statistics.median(engine)


def verdict(ok: bool, fail: str) -> str:
    return "OK" if ok else fail


def print_throughput(rows: dict[str, float], ds_rows: dict[str, float]) -> None:
    print(f"\n{'throughput (MB/s)':<22}{'memvault':>10}{'detect-secrets':>16}{'ratio':>8}")
    for name, mbps in rows.items():
        other = ds_rows.get(name)
        ratio = f"{mbps / other:>7.1f}x" if other else "      -"
        ds_text = f"{other:>16.2f}" if other else f"{'-':>16}"
        print(f"{name:<22}{mbps:>10.2f}{ds_text}{ratio}")


def print_latency(
    ordinary: tuple[float, float], dense: tuple[float, float], ds: tuple[float, float] | None
) -> None:
    print(f"\n{'added latency, 2 KB note':<32}{'median us':>10}{'p99 us':>10}")
    print(f"{'memvault apply, ordinary':<32}{ordinary[0]:>10.1f}{ordinary[1]:>10.1f}")
    print(f"{'memvault apply, dense':<32}{dense[0]:>10.1f}{dense[1]:>10.1f}")
    if ds:
        print(f"{'detect-secrets scan_file, dense':<32}{ds[0]:>10.1f}{ds[1]:>10.1f}")
        ratio = f"{ds[0] / dense[0]:>9.1f}x{ds[1] / dense[1]:>9.1f}x"
        print(f"{'ratio detect-secrets/mv, dense':<32}{ratio}")


def print_targets(
    ordinary: tuple[float, float], dense: tuple[float, float], ratio: float | None
) -> None:
    print("\ntargets")
    line = "  {:<40}{:>9.1f} {:<3} {:<10} {}"
    ok = ordinary[0] <= ORDINARY_MEDIAN_US
    print(line.format("ordinary 2 KB note, median", ordinary[0], "us",
                      f"<= {ORDINARY_MEDIAN_US}", verdict(ok, "OVER")))  # fmt: skip
    ok = dense[0] <= DENSE_MEDIAN_US
    print(line.format("dense 2 KB note, median", dense[0], "us",
                      f"<= {DENSE_MEDIAN_US}", verdict(ok, "OVER")))  # fmt: skip
    name = "dense corpus notes, x detect-secrets"
    if ratio is None:
        print(f"  {name:<40}{'-':>9}     >= {MIN_RATIO}      (detect-secrets is not installed)")
    else:
        ok = ratio >= MIN_RATIO
        print(line.format(name, ratio, "x", f">= {MIN_RATIO}", verdict(ok, "UNDER")))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer notes and repeats")
    args = parser.parse_args(argv)
    repeats = 2 if args.quick else 5
    limit = 200 if args.quick else 2000

    samples = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]
    texts = [s["text"] for s in samples]
    whole = "\n".join(texts)
    notes = notes_of(whole * 4, NOTE_BYTES, limit)
    ordinary = [note_text(seed) for seed in range(limit)]
    print(
        f"corpus: {len(samples)} notes, {len(whole.encode()) / MB:.2f} MB; "
        f"{len(notes)} dense and {len(ordinary)} ordinary notes of {NOTE_BYTES} bytes; "
        f"python {sys.version.split()[0]}"
    )

    red = redactor()

    def mv(text: str) -> object:
        return red.apply(text, pseudonym)

    mv(whole)  # warm up
    plain = [without_values(s) for s in samples]
    rows = {
        "whole corpus": throughput(mv, [whole], repeats),
        "mixed notes": throughput(mv, texts, repeats),
        "plain notes": throughput(mv, plain, repeats),
        "plain + mixed, 1:1": throughput(
            mv, [t for pair in zip(plain, texts, strict=True) for t in pair], repeats
        ),
        "ordinary notes": throughput(mv, ordinary, repeats),
    }
    dense_lat = latencies(mv, notes)
    ordinary_lat = latencies(mv, ordinary)

    ds_rows: dict[str, float] = {}
    ds_lat = None
    tmp = tempfile.TemporaryDirectory()
    try:
        ds: DetectSecrets | None = DetectSecrets(Path(tmp.name))
    except ImportError:
        ds = None
        print("detect-secrets is not installed (.venv/bin/pip install detect-secrets)")
    if ds is not None:
        whole_path = ds.write(whole)
        paths = [ds.write(s["text"], s["id"].split("-")[1]) for s in samples]
        note_paths = [ds.write(n) for n in notes[: max(50, len(notes) // 4)]]
        ds.scan(paths[0])  # warm up
        ds_rows["whole corpus"] = throughput(ds.scan, [whole_path], 1, len(whole.encode()))
        ds_rows["mixed notes"] = throughput(ds.scan, paths, 1, sum(len(t.encode()) for t in texts))
        ds_lat = latencies(ds.scan, note_paths)

    print_throughput(rows, ds_rows)
    print_latency(ordinary_lat, dense_lat, ds_lat)
    applied, engine = engine_floor(red, notes)
    print(
        f"\nwhere a dense 2 KB note's time goes (median): apply {applied:.0f} us, of which the "
        f"RE2 calls alone {engine:.0f} us ({engine / applied:.0%}); the rest is Python"
    )
    ratio = rows["mixed notes"] / ds_rows["mixed notes"] if ds_rows else None
    print_targets(ordinary_lat, dense_lat, ratio)
    if ds is not None:
        detect_secrets_quality(ds, samples, paths)
    tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
