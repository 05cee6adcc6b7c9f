"""Re-sealing one node under a user's new data key: the part of
:class:`~memvault.memory.Tree` a key rotation (``lifecycle/_rotate.py``) drives."""

from __future__ import annotations

from .. import _crypto
from ..errors import IntegrityError
from ..keys import Keyring, UserKey, labels
from ..store import StaleRow, Store
from ._node import ROOT_FID, Node, tampered


class Resealing:
    """Mixed into :class:`~memvault.memory.Tree`."""

    _store: Store
    _token: bytes
    _keyring: Keyring | None

    # -- what Tree provides ----------------------------------------------------------------

    @property
    def _key(self) -> UserKey:
        raise NotImplementedError

    def _meta_ctx(self, parent_fid: bytes, fid: bytes) -> bytes:
        raise NotImplementedError

    def _content_ctx(self, fid: bytes, cid: bytes) -> bytes:
        raise NotImplementedError

    def _open_meta(self, node_id: int, parent_fid: bytes, fid: bytes, blob: bytes) -> Node:
        raise NotImplementedError

    # -- re-sealing ------------------------------------------------------------------------

    def reseal(self, row: StaleRow) -> int:
        """Re-seal one node's metadata, text and last-used day under the primary key,
        with its look-up token re-made; the plaintexts (and so the record stamp) stay.
        Returns the bytes of text re-sealed. Inside a write transaction."""
        parent_fid = row.parent_fid if row.parent_fid is not None else ROOT_FID
        node = self._open_meta(row.id, parent_fid, row.fid, row.meta)
        assert self._keyring is not None
        key = self._key
        meta_ctx = self._meta_ctx(parent_fid, row.fid)
        plain = _crypto.open_blob(row.meta, meta_ctx, self._keyring.sealer_for)
        content = touched = None
        size = 0
        if row.content is not None:
            ctx = self._content_ctx(row.fid, node.cid)
            try:
                raw = _crypto.open_blob(row.content, ctx, self._keyring.sealer_for)
            except IntegrityError:
                raise tampered(row.id, "its text does not open (changed, moved or older)") from None
            content, size = key.sealer.seal(raw, ctx), len(raw)
        if row.touched is not None:
            ctx = _crypto.context(labels.AAD_TOUCHED, self._token, row.fid)
            try:
                day = _crypto.open_blob(row.touched, ctx, self._keyring.sealer_for)
            except IntegrityError:
                raise tampered(row.id, "its last-used day does not open") from None
            touched = key.sealer.seal(day, ctx)
        lookup = _crypto.mac(key.index, _crypto.context(parent_fid, node.name))
        meta = key.sealer.seal(plain, meta_ctx)
        self._store.reseal_node(row.id, lookup, meta, content, touched, key.version)
        return size
