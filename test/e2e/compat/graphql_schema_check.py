"""A third party's view of the product's GraphQL schema: Debian's python3-graphql-core asks the server for
its schema with its own introspection query, builds a client schema from the answer (build_client_schema)
and validates every ```graphql example of the given Markdown file against it.

    python3 graphql_schema_check.py URL TOKEN DOC.md [PATH]

Prints one line per example that does not validate, then `OK <n> examples` when all do (exit 1 otherwise).
"""
import json
import re
import sys
import urllib.request

from graphql import build_client_schema, parse, validate

try:  # graphql-core 2 (Debian bookworm and trixie)
    from graphql.utils.introspection_query import introspection_query as INTROSPECTION
except ImportError:  # graphql-core 3
    from graphql import get_introspection_query

    INTROSPECTION = get_introspection_query()


def introspect(url, token, path):
    body = json.dumps({"query": INTROSPECTION}).encode()
    req = urllib.request.Request(
        url + path,
        data=body,
        headers={"Authorization": "Token " + token, "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=30) as res:
        answer = json.load(res)
    if answer.get("errors"):
        raise SystemExit("introspection refused: %s" % answer["errors"])
    return answer["data"]


def examples(doc):
    with open(doc, encoding="utf-8") as f:
        return re.findall(r"^```graphql\n(.*?)^```", f.read(), re.S | re.M)


def main():
    url, token, doc = sys.argv[1:4]
    path = sys.argv[4] if len(sys.argv) > 4 else "/graphql/"
    schema = build_client_schema(introspect(url, token, path))
    found = examples(doc)
    if not found:
        raise SystemExit("no ```graphql examples in %s" % doc)
    bad = 0
    for i, text in enumerate(found, 1):
        errors = validate(schema, parse(text))
        for e in errors:
            bad += 1
            print("example %d: %s\n%s" % (i, e.message, text))
    if bad:
        sys.exit(1)
    print("OK %d examples, schema of %d types" % (len(found), len(schema.get_type_map())))


if __name__ == "__main__":
    main()
