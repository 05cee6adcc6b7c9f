"""One user's memories as an encrypted tree of directories and files.

This layer turns tree operations into store rows and back, sealing on the way
down and opening on the way up. Every node has a random identity (``fid``)
that never changes, even across renames, and these bindings hold:

* a node's sealed metadata (kind, size, content id, name) is bound to the
  user, its own identity and its parent's identity: a row moved to another
  directory, another user or another node fails to open;
* a file's sealed content is bound to the user, the file identity and the
  content id stored in its metadata: contents swapped between files, or an
  older content put back under newer metadata, fail to open;
* names are found by keyed look-up tokens ``HMAC(index key, parent, name)``,
  and the name a token finds is opened and compared, so swapped tokens are
  caught too;
* a file's last-used day is bound to the user and the file identity
  (``_touch.py``): a day moved to another file fails to open.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import replace
from typing import NamedTuple

from .. import _crypto
from ..errors import IntegrityError, StorageError
from ..keys import Keyring, MasterKeys, UserKey, labels
from ..store import NodeRow, Store
from . import _touch
from ._guard import MAX_DEPTH
from ._hints import SizeHints
from ._node import ROOT, Node
from ._node import tampered as _tampered
from ._reseal import Resealing
from ._tally import Chain, Entry, Tallies

_META = struct.Struct(">BQ16sQ")  # kind, size in bytes, content id, written by record
_FILE, _DIR, _TALLIED_DIR = 2, 3, 4
# A directory's tally (``_tally.py``) in the place of a file's content id: the entries
# directly in it. Its size is the bytes of every file below it. Stamp 0: a directory
# written before stamps were kept (format 1), re-tallied since.
_ENTRIES = struct.Struct(">Q8x")
_NO_CONTENT = b"\0" * 16
# Metadata sealed before nodes carried the record that wrote them (store format 1): no
# stamp; a node gets one when it is next written or moved.
_LEGACY = struct.Struct(">BQ16s")  # kinds 0 (file) and 1 (directory)


class Stored(NamedTuple):
    """A file's text as the store holds it: the file's identity and the UTF-8 bytes (what
    an audit digest covers), with the text they decode to."""

    fid: bytes
    raw: bytes
    text: str


class Tree(_touch.LastUsed, Resealing, Tallies, SizeHints):
    """The memories of one user, read and written in transactions."""

    def __init__(self, store: Store, master: MasterKeys, user_id: int, token: bytes) -> None:
        self._store = store
        self._master = master
        self._user_id = user_id
        self._token = token
        self._keyring: Keyring | None = None
        # Of the current write transaction: the record it will append (stamped into every
        # node it writes), how many nodes it added (or removed), the node it acted on.
        self._stamp = 0
        self.added = 0
        self.acted: bytes | None = None
        self.stale = None
        self._used_on = {}
        self._fresh = {}
        self._fresh_counts = (0, 0)
        self._root_blob = None
        self._sizes = {}
        # context(a, b, c, d) == context(a, b) + context(c, d): the per-user part once.
        self._node_prefix = _crypto.context(labels.AAD_NODE, token)
        self._content_prefix = _crypto.context(labels.AAD_CONTENT, token)

    def __repr__(self) -> str:
        return f"<Tree user_id={self._user_id}>"

    # -- keys and transactions ------------------------------------------------

    def _load_keyring(self, primary: int) -> Keyring:
        keys = {
            version: UserKey(self._master.unwrap(wrapped, self._token, version), version)
            for version, wrapped in self._store.data_keys(self._user_id)
        }
        return Keyring(keys, primary)

    @contextmanager
    def transaction(self, *, write: bool) -> Iterator[None]:
        """One command: a consistent snapshot, applied whole or not at all.

        The user's key version is re-read each time, so a tool that outlives a
        key rotation in another process picks up the new keys.
        """
        with self._store.transaction(write=write):
            self.join()
            yield

    def join(self) -> None:
        """Inside a store transaction the caller opened (several users' trees read in one
        snapshot): read the user's key version, and their keys if it changed.
        :meth:`transaction` does this itself."""
        self.stale = None
        self._fresh = {}
        state = self._store.user_state(self._user_id)
        if state is None:
            raise StorageError(
                "this user's memories no longer exist in the vault (erased?)",
                hint="open a new memory tool for the user",
            )
        primary, self._root_blob = state
        if self._keyring is None or self._keyring.primary.version != primary:
            self._keyring = self._load_keyring(primary)

    def begin_write(self, stamp: int) -> None:
        """Inside a write transaction: the sequence number of the record it will append.
        A root tally kept before it counted files and directories gets its counts here,
        before the command's own step, so a refused command keeps them too."""
        self._stamp, self.added, self.acted = stamp, 0, None
        self.count_root()

    def savepoint(self) -> AbstractContextManager[None]:
        """A step inside the current transaction, undone alone if it raises."""
        return self._store.savepoint()

    @property
    def key_version(self) -> int | None:
        """The data key version the current (or last) transaction runs with."""
        return self._keyring.primary.version if self._keyring is not None else None

    @property
    def _key(self) -> UserKey:
        assert self._keyring is not None, "used outside a transaction"
        return self._keyring.primary

    def pseudonym(self, kind: str, value: str) -> str:
        """This user's stable pseudonym for a value the redaction policy pseudonymizes."""
        return self._master.pseudonym(self._token, kind, value)

    # -- sealing ---------------------------------------------------------------

    def _lookup(self, parent: Node, name: str) -> bytes:
        return _crypto.mac(self._key.index, _crypto.context(parent.fid, name))

    def _meta_ctx(self, parent_fid: bytes, fid: bytes) -> bytes:
        return self._node_prefix + _crypto.context(parent_fid, fid)

    def _content_ctx(self, fid: bytes, cid: bytes) -> bytes:
        return self._content_prefix + _crypto.context(fid, cid)

    def _seal_node(self, parent_fid: bytes, node: Node, stamp: int) -> bytes:
        """``node``'s metadata, sealed under ``parent_fid``: a directory with its tally."""
        if node.is_dir:
            assert node.children is not None, "a directory is sealed with its tally"
            head = _META.pack(_TALLIED_DIR, node.size, _ENTRIES.pack(node.children), stamp)
        else:
            head = _META.pack(_FILE, node.size, node.cid, stamp)
        ctx = self._meta_ctx(parent_fid, node.fid)
        return self._key.sealer.seal(head + node.name.encode(), ctx)

    def _stamped(self) -> int:
        assert self._stamp > 0, "a node is written only in a stamped write transaction"
        return self._stamp

    def _open_meta(self, node_id: int, parent_fid: bytes, fid: bytes, blob: bytes) -> Node:
        assert self._keyring is not None
        try:
            plain = _crypto.open_blob(
                blob, self._meta_ctx(parent_fid, fid), self._keyring.sealer_for
            )
        except IntegrityError:
            raise _tampered(node_id, "its metadata does not open (changed or moved)") from None
        written: int | None
        children = None
        try:
            if plain[:1] == b"\x04":
                kind, size, tally, written = _META.unpack_from(plain)
                (children,), cid = _ENTRIES.unpack(tally), _NO_CONTENT
                written = written or None
                name = plain[_META.size :].decode()
            elif plain[:1] in (b"\x02", b"\x03"):
                kind, size, cid, written = _META.unpack_from(plain)
                name = plain[_META.size :].decode()
            elif plain[:1] in (b"\x00", b"\x01"):
                kind, size, cid = _LEGACY.unpack_from(plain)
                kind, written = kind + _FILE, None
                name = plain[_LEGACY.size :].decode()
            else:
                raise _tampered(node_id, "an unknown kind in its metadata")
        except (UnicodeDecodeError, struct.error):
            raise _tampered(node_id, "its metadata is malformed") from None
        return Node(node_id, fid, name, kind != _FILE, size, cid, written, children)

    # -- reading ---------------------------------------------------------------

    def child(self, parent: Node, name: str) -> Node | None:
        row = self._store.child(self._user_id, parent.id, self._lookup(parent, name))
        if row is None:
            row = self._child_under_older_key(parent, name)
        if row is None:
            return None
        node = self._open_meta(row.id, parent.fid, row.fid, row.meta)
        if node.name != name:  # a look-up token moved onto another row
            raise _tampered(row.id, "its look-up token names another entry")
        return node

    def _child_under_older_key(self, parent: Node, name: str) -> NodeRow | None:
        """While a rotation is under way, a node not yet re-sealed is found by the token
        of the key it was written under."""
        assert self._keyring is not None
        for key in self._keyring.older():
            token = _crypto.mac(key.index, _crypto.context(parent.fid, name))
            row = self._store.child(self._user_id, parent.id, token)
            if row is not None:
                return row
        return None

    def walk(self, parts: tuple[str, ...]) -> list[Node]:
        """The existing nodes along ``parts``, from the root, stopping at the first missing one
        or at a file (a file has no children)."""
        chain = [ROOT]
        for name in parts:
            parent = chain[-1]
            if not parent.is_dir:
                break
            node = self.child(parent, name)
            if node is None:
                break
            chain.append(node)
        return chain

    def resolve(self, parts: tuple[str, ...]) -> Node | None:
        chain = self.walk(parts)
        return chain[-1] if len(chain) == len(parts) + 1 else None

    def read(self, node: Node) -> Stored:
        """A file's text; raises IntegrityError if what the store holds is not what was
        sealed for this file."""
        assert self._keyring is not None
        blob = self._store.content(node.id)
        if blob is None:
            raise _tampered(node.id, "its text is missing")
        try:
            raw = _crypto.open_blob(
                blob, self._content_ctx(node.fid, node.cid), self._keyring.sealer_for
            )
        except IntegrityError:
            raise _tampered(node.id, "its text does not open (changed, moved or older)") from None
        if len(raw) != node.size:
            raise _tampered(node.id, "its text is not the size its metadata records")
        try:
            text = raw.decode()
        except UnicodeDecodeError:
            raise _tampered(node.id, "its text is not UTF-8") from None
        return Stored(node.fid, raw, text)

    def everything(self) -> list[Entry]:
        """Every directory and file of the user, in pre-order (each directory's entries
        sorted by name), each one opened and authenticated: what a lifecycle operation
        walks. Inside a transaction; a file's text is then :meth:`read`."""
        return self.listing(MAX_DEPTH)[1]

    def has_children(self, directory: Node) -> bool:
        return self._store.has_children(self._user_id, directory.id)

    # -- writing ---------------------------------------------------------------

    def mkdirs(self, chain: Chain, names: tuple[str, ...]) -> Chain:
        """``chain`` extended by new directories ``names``, each inside the one before."""
        made = list(chain)
        stamp = self._stamped()
        for i, name in enumerate(names):
            parent = made[-1]
            inner = int(i + 1 < len(names))  # the next new directory is inside this one
            node = Node(0, _crypto.new_id(), name, True, 0, _NO_CONTENT, stamp, inner)
            node_id = self._store.insert_node(
                self._user_id,
                parent.id,
                self._lookup(parent, name),
                node.fid,
                self._seal_node(parent.fid, node, stamp),
                self._key.version,
            )
            made.append(replace(node, id=node_id))
            self.added += 1
        if names:
            self._retally((chain, 0, 1), directories=len(names))
        return made

    def create_file(self, chain: Chain, name: str, text: str) -> Stored:
        """A new file ``name`` in the last directory of ``chain``."""
        parent = chain[-1]
        raw = text.encode()
        node = Node(0, _crypto.new_id(), name, False, len(raw), _crypto.new_id())
        meta = self._seal_node(parent.fid, node, self._stamped())
        node_id = self._store.insert_node(
            self._user_id,
            parent.id,
            self._lookup(parent, name),
            node.fid,
            meta,
            self._key.version,
            self._today_for(node.fid),
        )
        self._store.insert_content(
            node_id, self._key.sealer.seal(raw, self._content_ctx(node.fid, node.cid))
        )
        self._retally((chain, len(raw), 1), files=1)
        self.added += 1
        self.acted = node.fid
        return Stored(node.fid, raw, text)

    def write(self, chain: Chain, text: str) -> Stored:
        """Replace the text of the file ``chain[-1]`` (its identity and place stay)."""
        parent, node = chain[-2], chain[-1]
        raw = text.encode()
        new = replace(node, size=len(raw), cid=_crypto.new_id())
        # The look-up token is re-made too: a row's key version names the key of its
        # metadata and of its token alike (a rotation finds what is left by it).
        self._store.update_node(
            node.id,
            parent.id,
            self._lookup(parent, node.name),
            self._seal_node(parent.fid, new, self._stamped()),
            self._key.version,
            self._today_for(node.fid),
        )
        self._store.replace_content(
            node.id, self._key.sealer.seal(raw, self._content_ctx(node.fid, new.cid))
        )
        self._retally((chain[:-1], len(raw) - node.size, 0))
        self.acted = node.fid
        return Stored(node.fid, raw, text)

    def move(self, chain: Chain, target: Chain, new_name: str) -> None:
        """Move the file or directory ``chain[-1]`` (with everything below it) into the last
        directory of ``target``, as ``new_name``.

        Renaming a file is a use of it: today becomes its last-used day. Moving a
        directory uses none of the files below it (archiving a directory does not keep
        it from expiring), and costs the same however many there are."""
        node = chain[-1]
        moved = replace(self.tallied(node) if node.is_dir else node, name=new_name)
        parent = target[-1]
        self._store.update_node(
            node.id,
            parent.id,
            self._lookup(parent, new_name),
            self._seal_node(parent.fid, moved, self._stamped()),
            self._key.version,
            None if node.is_dir else self._today_for(node.fid),
        )
        self._retally((chain[:-1], -moved.size, -1), (target, moved.size, 1))
        self.acted = node.fid

    def delete(self, chain: Chain) -> None:
        """Delete the file ``chain[-1]``, or the directory with everything below it."""
        node = chain[-1]
        if node.is_dir:
            size = self.tallied(node).size
            nodes, files = self._store.delete_subtree(self._user_id, node.id)
        else:
            size, files = node.size, 1
            nodes = self._store.delete_node(self._user_id, node.id)
        self.added -= nodes
        self._retally((chain[:-1], -size, -1), files=-files, directories=files - nodes)
        self.acted = node.fid

    # -- last-used days (the rest is :class:`~._touch.LastUsed`) -------------------

    def _set_day(self, node_id: int, fid: bytes, day: int) -> None:
        self._store.set_touched(node_id, _touch.seal(self._key.sealer, self._token, fid, day))

    def _today_for(self, fid: bytes) -> bytes:
        """Today, sealed as the last-used day of the file ``fid``."""
        return _touch.seal(self._key.sealer, self._token, fid, _touch.today())

    def _open_day(self, node_id: int, fid: bytes, blob: bytes) -> int:
        assert self._keyring is not None
        try:
            return _touch.open_day(blob, self._token, fid, self._keyring.sealer_for)
        except IntegrityError:
            raise _tampered(node_id, "its last-used day does not open (changed or moved)") from None
