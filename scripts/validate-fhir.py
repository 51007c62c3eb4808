#!/usr/bin/env python3
"""Checks a FHIR R4 Bundle with an independent validator: fhir.resources' R4B models (pydantic), which reject
unknown fields, wrong types, malformed dates and missing required elements.

Usage: validate-fhir.py BUNDLE.json
Prints one JSON line: {"ok": true, "counts": {ResourceType: n}} or {"ok": false, "error": "..."}; exits 1 when
the bundle is not valid. Also checks what the models cannot: every reference inside the bundle resolves to an
entry's fullUrl, fullUrls are unique, and the codes with a required binding (the statuses, the bundle type) are in
their value sets (the models check only that a code is a well-formed token).
"""
import json
import sys

from fhir.resources.R4B.bundle import Bundle
from fhir.resources.R4B.medicationadministration import MedicationAdministration
from fhir.resources.R4B.medicationstatement import MedicationStatement
from fhir.resources.R4B.patient import Patient

MODELS = {
    "Patient": Patient,
    "MedicationStatement": MedicationStatement,
    "MedicationAdministration": MedicationAdministration,
}


# Required bindings, from the FHIR R4 specification's value sets.
REQUIRED = {
    ("Bundle", "type"): {
        "document", "message", "transaction", "transaction-response", "batch", "batch-response", "history",
        "searchset", "collection",
    },
    ("MedicationStatement", "status"): {
        "active", "completed", "entered-in-error", "intended", "stopped", "on-hold", "unknown", "not-taken",
    },
    ("MedicationAdministration", "status"): {
        "in-progress", "not-done", "on-hold", "completed", "entered-in-error", "stopped", "unknown",
    },
}


def check_bindings(resource):
    kind = resource.get("resourceType")
    for (owner, field), codes in REQUIRED.items():
        if owner == kind and resource.get(field) not in codes:
            raise ValueError(f"{kind}.{field} {resource.get(field)!r} is not in its required value set")


def references(value):
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "reference" and isinstance(item, str):
                yield item
            else:
                yield from references(item)
    elif isinstance(value, list):
        for item in value:
            yield from references(item)


def main(path):
    with open(path, encoding="utf-8") as handle:
        raw = json.load(handle)
    Bundle.model_validate(raw)
    check_bindings(raw)
    counts = {}
    urls = set()
    for entry in raw.get("entry", []):
        resource = entry["resource"]
        kind = resource["resourceType"]
        if kind not in MODELS:
            raise ValueError(f"unexpected resource type {kind}")
        MODELS[kind].model_validate(resource)
        check_bindings(resource)
        counts[kind] = counts.get(kind, 0) + 1
        url = entry.get("fullUrl")
        if url in urls:
            raise ValueError(f"duplicate fullUrl {url}")
        urls.add(url)
    for reference in references(raw):
        if reference not in urls:
            raise ValueError(f"reference {reference} resolves to no entry")
    return counts


if __name__ == "__main__":
    try:
        result = {"ok": True, "counts": main(sys.argv[1])}
    except Exception as error:  # any failure is the answer: the bundle is not valid
        print(json.dumps({"ok": False, "error": f"{type(error).__name__}: {error}"}))
        sys.exit(1)
    print(json.dumps(result, sort_keys=True))
