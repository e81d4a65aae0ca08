"""The grammars of `hashline grammar` through Python readers (run by tests/grammar_python.rs).

Usage: python_check.py GRAMMAR.lark GRAMMAR.gbnf CASES.json OUT.lark

* Loads the Lark grammar with Python's `lark` (Earley) and parses every text of
  CASES.json["accept"] (each must parse) and CASES.json["reject"] (each must fail).
* Reads the GBNF grammar with llguidance's GBNF front end (`gbnf_to_lark.any_to_lark`, what
  `llguidance.grammar_from("gbnf", …)` runs) and writes the Lark it produces to OUT.lark, for
  the Rust test to compile with llguidance and check against the same patches.

Prints one line of counts per reader; exits 1 on the first reader that fails.
"""

import json
import sys

import lark
from llguidance.gbnf_to_lark import any_to_lark


def main() -> int:
    lark_path, gbnf_path, cases_path, out_path = sys.argv[1:5]
    with open(lark_path, encoding="utf-8") as f:
        lark_text = f.read()
    with open(gbnf_path, encoding="utf-8") as f:
        gbnf_text = f.read()
    with open(cases_path, encoding="utf-8") as f:
        cases = json.load(f)

    try:
        parser = lark.Lark(lark_text, start="start")
    except lark.exceptions.LarkError as e:
        print(f"python lark {lark.__version__} refuses the grammar: {e}")
        return 1
    failures = []
    for text in cases["accept"]:
        try:
            parser.parse(text)
        except lark.exceptions.LarkError as e:
            failures.append(f"rejected {text!r}: {type(e).__name__}")
    rejected = 0
    for text in cases["reject"]:
        try:
            parser.parse(text)
            failures.append(f"accepted {text!r}")
        except lark.exceptions.LarkError:
            rejected += 1
    print(
        f"python lark {lark.__version__}: {len(cases['accept'])} canonical patches, "
        f"{len(cases['accept']) - sum(f.startswith('rejected') for f in failures)} accepted; "
        f"{len(cases['reject'])} malformed, {rejected} rejected"
    )
    if failures:
        print("\n".join(failures))
        return 1

    try:
        converted = any_to_lark(gbnf_text)
    except Exception as e:  # the converter raises plain exceptions on bad input
        print(f"llguidance's GBNF reader refuses the grammar: {e}")
        return 1
    with open(out_path, "w", encoding="utf-8") as f:
        f.write(converted)
    print(f"llguidance GBNF front end: {len(gbnf_text.splitlines())} GBNF lines read")
    return 0


if __name__ == "__main__":
    sys.exit(main())
