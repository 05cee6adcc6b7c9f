"""Where findings overlap, which one stands: in time ``n log n`` in the number of findings.

The rule is greedy: the finding of the highest priority stands, then the longest,
then the earliest, then the one whose rule the policy lists first; a finding that
overlaps one already standing falls. Done naively this is quadratic (each finding
checked against, or inserted among, all that stand), and a text of many small
findings would hold the filter for seconds.

Findings sorted by position fall into *clusters*: runs in which each finding
overlaps the reach of those before it. Nothing overlaps across clusters, so each
is resolved alone, and almost every cluster is one finding or a handful. A large
cluster is resolved with a Fenwick tree over its boundaries: whether a candidate
meets a standing finding is one lookup and one count of standing starts inside it.
"""

from __future__ import annotations

from collections.abc import Sequence

from ._rule import Finding

# (priority, policy order, finding): the rank of a finding among those it overlaps.
Ranked = tuple[int, int, Finding]

# Clusters up to this size are resolved by comparing each candidate with what stands.
_SMALL = 24


def resolve(found: Sequence[Ranked]) -> list[Finding]:
    """The findings that stand, in order of position; see the module's description."""
    ordered = sorted(found, key=lambda r: r[2].start)
    kept: list[Finding] = []
    cluster: list[Ranked] = []
    reach = -1
    for ranked in ordered:
        finding = ranked[2]
        if finding.start >= reach:
            if len(cluster) == 1:
                kept.append(cluster[0][2])  # alone: it stands
            elif cluster:
                kept.extend(_cluster(cluster))
            cluster = [ranked]
            reach = finding.end
            continue
        cluster.append(ranked)
        reach = max(reach, finding.end)
    if cluster:
        kept.extend(_cluster(cluster))
    return kept


def _best_first(cluster: list[Ranked]) -> list[Finding]:
    """Higher priority first, then longer, then earlier, then the rule listed first."""
    cluster.sort(key=lambda r: (-r[0], r[2].start - r[2].end, r[2].start, r[1]))
    return [r[2] for r in cluster]


def _cluster(cluster: list[Ranked]) -> list[Finding]:
    if len(cluster) <= _SMALL:
        kept: list[Finding] = []
        for finding in _best_first(cluster):
            if all(k.end <= finding.start or finding.end <= k.start for k in kept):
                kept.append(finding)
        return sorted(kept, key=lambda f: f.start)
    return _large(cluster)


def _large(cluster: list[Ranked]) -> list[Finding]:
    """A large cluster: boundaries numbered in order, the stretches between them marked
    as standing findings take them, and a Fenwick tree counting standing starts."""
    points = sorted({f.start for _, _, f in cluster} | {f.end for _, _, f in cluster})
    number = {point: i for i, point in enumerate(points)}
    taken = bytearray(len(points))  # taken[i]: the stretch from points[i] is covered
    tree = [0] * (len(points) + 1)
    kept: list[Finding] = []
    for finding in _best_first(cluster):
        first, last = number[finding.start], number[finding.end]
        # It meets a standing finding if one covers a stretch of it: looked up directly
        # for a short finding, and for a long one (whose look-up could cost the length
        # of the cluster) as one covering its start or one starting inside it.
        if last - first <= _SMALL:
            if taken.find(1, first, last) >= 0:
                continue
        elif taken[first] or _count(tree, last) - _count(tree, first + 1) > 0:
            continue
        taken[first:last] = b"\1" * (last - first)  # standing findings never overlap:
        at = first + 1  # each stretch is marked once, at most len(points) in all
        while at < len(tree):
            tree[at] += 1
            at += at & -at
        kept.append(finding)
    return sorted(kept, key=lambda f: f.start)


def _count(tree: list[int], end: int) -> int:
    """How many standing findings start at a boundary numbered below ``end``."""
    total = 0
    while end > 0:
        total += tree[end]
        end &= end - 1
    return total
