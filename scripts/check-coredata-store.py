#!/usr/bin/env python3
"""Checks a SQLite store file against the layout Apple's Core Data writes, with sqlite3 and plistlib only.

    scripts/check-coredata-store.py STORE.sqlite [MODEL.xcdatamodel]

Independent of OpenCoreData: it reads the file as Apple's Core Data would expect it (Z_METADATA,
Z_PRIMARYKEY, one table per entity hierarchy, the metadata keys and their formats) and, given the Xcode
model the store was written with, recomputes every entity's version hash from the model's XML by the rules
in ../shared/reference/coredata-version-hashes.md. Prints what it checked; exits 1 naming each problem.
"""
import base64
import hashlib
import plistlib
import sqlite3
import struct
import sys
import xml.etree.ElementTree as ET

ATTRIBUTE_TYPES = {
    "Integer 16": 100, "Integer 32": 200, "Integer 64": 300, "Decimal": 400, "Double": 500, "Float": 600,
    "String": 700, "Boolean": 800, "Date": 900, "Binary": 1000, "UUID": 1100, "URI": 1200,
    "Transformable": 1800, "ObjectID": 2000, "Composite": 2100,
}


def utf16_key(name):
    return name.encode("utf-16-be")


def sha256(data):
    return hashlib.sha256(data).digest()


def yes(element, attribute):
    return element.get(attribute) == "YES"


def base_hash(element):
    flags = (1 if yes(element, "optional") else 0) | (2 if yes(element, "transient") else 0)
    return sha256(element.get("name").encode() + struct.pack("<H", flags)
                  + (element.get("versionHashModifier") or "").encode())


def attribute_hash(element, composites):
    if element.get("attributeType") == "Composite":
        # Provisional rule (no outside test vector yet): the sorted non-transient leaves' hashes.
        def leaves(definition):
            for child in definition.findall("attribute"):
                if child.get("attributeType") == "Composite":
                    yield from leaves(composites[child.get("composite")])
                elif not yes(child, "transient"):
                    yield child
        found = sorted(leaves(composites[element.get("composite")]), key=lambda e: utf16_key(e.get("name")))
        return sha256(b"".join(attribute_hash(leaf, composites) for leaf in found))
    data = base_hash(element) + struct.pack("<I", ATTRIBUTE_TYPES[element.get("attributeType")])
    if yes(element, "allowsExternalBinaryDataStorage"):
        data += b"\x01"
    if yes(element, "preserveAfterDeletion"):
        data += b"\x01"
    return sha256(data)


def relationship_hash(element):
    data = base_hash(element) + element.get("destinationEntity").encode()
    inverse = element.get("inverseName")
    if inverse and not (inverse == element.get("name") and element.get("inverseEntity") in (None, element.get("entity"))):
        data += inverse.encode()
    if yes(element, "toMany"):
        max_count = int(element.get("maxCount") or 0)
    else:
        max_count = int(element.get("maxCount") or 1)
    data += struct.pack("<I", max_count & 0xFFFFFFFF) + struct.pack("<I", int(element.get("minCount") or 0))
    if yes(element, "ordered"):
        data += b"\x01\x00"
    return sha256(data)


def model_hashes(path):
    root = ET.parse(path + "/contents").getroot()
    entities = {e.get("name"): e for e in root.findall("entity")}
    composites = {c.get("name"): c for c in root.findall("composite")}
    hashes = {}

    def properties(entity):
        own = []
        for child in entity:
            if child.tag in ("attribute", "relationship") and not yes(child, "transient"):
                child.set("entity", entity.get("name"))
                own.append(child)
        parent = entity.get("parentEntity")
        return own + (properties(entities[parent]) if parent else [])

    def entity_hash(name):
        if name in hashes:
            return hashes[name]
        entity = entities[name]
        data = name.encode() + (b"\x01" if yes(entity, "isAbstract") else b"\x00")
        if entity.get("parentEntity"):
            data += entity_hash(entity.get("parentEntity"))
        for prop in sorted(properties(entity), key=lambda p: utf16_key(p.get("name"))):
            data += attribute_hash(prop, composites) if prop.tag == "attribute" else relationship_hash(prop)
        data += (entity.get("versionHashModifier") or "").encode()
        constraints = []
        for constraint in entity.findall("uniquenessConstraints/uniquenessConstraint"):
            constraints.append(".".join(c.get("value") for c in constraint.findall("constraint")))
        for text in sorted(constraints, key=utf16_key):
            data += text.encode()
        hashes[name] = sha256(data)
        return hashes[name]

    for name in entities:
        entity_hash(name)
    return hashes


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 64
    problems = []
    db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
    columns = lambda table: [row[1] for row in db.execute("PRAGMA table_info(%s)" % table)]
    if columns("Z_METADATA") != ["Z_VERSION", "Z_UUID", "Z_PLIST"]:
        problems.append("Z_METADATA columns are %s" % columns("Z_METADATA"))
    if columns("Z_PRIMARYKEY") != ["Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX"]:
        problems.append("Z_PRIMARYKEY columns are %s" % columns("Z_PRIMARYKEY"))
    rows = db.execute("SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA").fetchall()
    if len(rows) != 1 or rows[0][0] != 1:
        problems.append("Z_METADATA must hold one row with Z_VERSION 1, has %r" % [r[0] for r in rows])
    version, uuid, blob = rows[0]
    if not bytes(blob).startswith(b"bplist00"):
        problems.append("Z_PLIST is not a binary property list")
    metadata = plistlib.loads(bytes(blob))
    expect = {"NSStoreType": "SQLite", "NSStoreUUID": uuid, "NSStoreModelVersionHashesVersion": 3}
    for key, value in expect.items():
        if metadata.get(key) != value:
            problems.append("metadata %s is %r, expected %r" % (key, metadata.get(key), value))
    hashes = metadata.get("NSStoreModelVersionHashes") or {}
    if not hashes or any(not isinstance(h, bytes) or len(h) != 32 for h in hashes.values()):
        problems.append("NSStoreModelVersionHashes must map every entity to 32 bytes")
    names = sorted(hashes, key=utf16_key)
    checksum = base64.b64encode(sha256(b"".join(hashes[n] for n in names))).decode()
    digest = base64.b64encode(hashlib.sha512(b"".join(n.encode() + hashes[n] for n in names)).digest()).decode()
    if metadata.get("NSStoreModelVersionChecksumKey") != checksum:
        problems.append("NSStoreModelVersionChecksumKey %r is not the checksum of the hashes (%s)"
                        % (metadata.get("NSStoreModelVersionChecksumKey"), checksum))
    if metadata.get("NSStoreModelVersionHashesDigest") != digest:
        problems.append("NSStoreModelVersionHashesDigest is not the digest of the hashes")
    if not isinstance(metadata.get("NSStoreModelVersionIdentifiers"), list):
        problems.append("NSStoreModelVersionIdentifiers must be an array")
    keys = {row[1]: row for row in db.execute("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY")}
    if set(keys) != set(hashes):
        problems.append("Z_PRIMARYKEY names %s differ from the metadata's entities %s" % (sorted(keys), names))
    numbers = {row[0]: row for row in keys.values()}
    for name, (number, _, parent, _) in keys.items():
        if parent and parent not in numbers:
            problems.append("Z_PRIMARYKEY: %s has Z_SUPER %d, which is no entity" % (name, parent))
    for name, (number, _, parent, _) in keys.items():
        if parent:
            continue
        table = "Z" + name.upper()
        present = columns(table)
        if present[:3] != ["Z_PK", "Z_ENT", "Z_OPT"]:
            problems.append("%s starts with %s, not Z_PK, Z_ENT, Z_OPT" % (table, present[:3]))
            continue
        family = {number}
        changed = True
        while changed:
            changed = False
            for n, (_, _, p, _) in numbers.items():
                if p in family and n not in family:
                    family.add(n)
                    changed = True
        for (ent,) in db.execute("SELECT DISTINCT Z_ENT FROM %s" % table):
            if ent not in family:
                problems.append("%s holds rows with Z_ENT %s, not an entity of its hierarchy" % (table, ent))
        (biggest,) = db.execute("SELECT MAX(Z_PK) FROM %s" % table).fetchone()
        ceiling = max(numbers[ent][3] for ent in family)
        if biggest is not None and biggest > ceiling:
            problems.append("%s: Z_PK %d is above every Z_MAX of its hierarchy (%d)" % (table, biggest, ceiling))
    if len(sys.argv) == 3:
        expected = model_hashes(sys.argv[2])
        for name in sorted(set(expected) | set(hashes)):
            if expected.get(name) != hashes.get(name):
                problems.append("entity %s: store hash %s, model hash %s" % (
                    name, (hashes.get(name) or b"").hex(), (expected.get(name) or b"").hex()))
    for problem in problems:
        print("problem: " + problem)
    print("checked %d entities: %s" % (len(hashes), "ok" if not problems else "%d problems" % len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
