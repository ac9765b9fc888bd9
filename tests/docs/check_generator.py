#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Tests of scripts/gen_api_docs.py (ctest docs_api_*; tests/docs/tests.cmake).

    check_generator.py detects ROOT   on copies of include/ and the page made from them: the
                                      check fails, naming what is wrong, when a header loses a
                                      doc comment, when the page is stale or missing, and when
                                      the known-undocumented list names a documented function;
                                      it passes on the unchanged copies (so each failure comes
                                      from its change alone, whatever the state of docs/api.md)
    check_generator.py parser ROOT    tests/docs/fixture.h (multi-line declarations, #if attribute
                                      blocks, extern "C", function-like macros, nested members,
                                      inline functions, ...) is read as a C compiler would

ROOT is the repository. Work files go to a temporary directory, removed at the end. Exit 0 when
every case holds, 1 otherwise (each failed case is printed).
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

FAILURES = []


def expect(cond, what):
    print("%s: %s" % ("ok" if cond else "FAILED", what))
    if not cond:
        FAILURES.append(what)


def gen(root, *args):
    """Runs the generator; returns (exit status, stdout + stderr)."""
    p = subprocess.run([sys.executable, os.path.join(root, "scripts", "gen_api_docs.py")] +
                       list(args), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    return p.returncode, p.stdout


def remove_doc_comment(text, declaration):
    """The header text without the /** ... */ comment right before the line that starts with
    the regular expression `declaration`."""
    decl = re.search(r"^" + declaration, text, re.M)
    assert decl, "no line starts with %s" % declaration
    end = text.rfind("*/", 0, decl.start())
    assert end >= 0 and not text[end + 2:decl.start()].strip(), "%s: no doc comment" % declaration
    start = text.rfind("/**", 0, end)
    return text[:start] + text[decl.start():]


def detects(root):
    with tempfile.TemporaryDirectory() as tmp:
        # Copies of the headers, the page made from them and the list of what they leave
        # undocumented: the check passes on these, so each failure below comes from its change.
        inc = os.path.join(tmp, "include")
        shutil.copytree(os.path.join(root, "include"), inc)
        page = os.path.join(tmp, "api.md")
        rc, out = gen(root, "--include-dir", inc, "--output", page)
        assert rc == 0, out
        with open(page, encoding="utf-8") as f:
            md = f.read()
        rc, out = gen(root, "--check", "--include-dir", inc, "--output", page)
        listed = re.findall(r"error: public \w+ (\w+) has no doc comment", out)
        known = os.path.join(tmp, "known.txt")
        with open(known, "w", encoding="utf-8") as f:
            f.write("# what the headers leave undocumented today\n" + "".join(
                n + "\n" for n in listed))

        def check(*extra):
            return gen(root, "--check", "--include-dir", inc, "--output", page, *extra)

        rc, out = check("--known-undocumented", known)
        expect(rc == 0, "control: the headers, their page and their list pass the check")
        if rc != 0:
            print(out)
        rc, out = check()
        expect((rc == 1) == bool(listed) and all(
            re.search(r"error: public \w+ %s has no doc comment" % n, out) for n in listed),
            "without the list, each of the %d undocumented declarations is an error" % len(listed))

        # (a) A public function loses its doc comment.
        csr_h = os.path.join(inc, "csr.h")
        with open(csr_h, encoding="utf-8") as f:
            text = f.read()
        with open(csr_h, "w", encoding="utf-8") as f:
            f.write(remove_doc_comment(text, r"csr_status csr_spmv\("))
        rc, out = check("--known-undocumented", known)
        expect(rc == 1, "a header without csr_spmv's doc comment fails the check (exit %d)" % rc)
        expect(re.search(r"include/csr\.h:\d+: error: public function csr_spmv has no doc "
                         r"comment", out) is not None, "... and the check names csr_spmv")
        expect("out of date" in out, "... and says api.md no longer matches the headers")
        expect(re.search(r"error: public \w+ (?!csr_spmv\b)", out) is None,
               "... and blames nothing else")

        # A type loses its doc comment.
        with open(csr_h, "w", encoding="utf-8") as f:
            f.write(remove_doc_comment(text, r"typedef struct csr_vector\b"))
        rc, out = check("--known-undocumented", known)
        expect(rc == 1 and re.search(r"error: public struct csr_vector has no doc comment", out)
               is not None, "a header without csr_vector's doc comment fails, naming csr_vector")
        with open(csr_h, "w", encoding="utf-8") as f:
            f.write(text)

        # (b) api.md is stale: a line added by hand.
        stale = md.replace("`csr_spmv`\n", "`csr_spmv`\n\nA line added by hand.\n", 1)
        assert stale != md
        with open(page, "w", encoding="utf-8") as f:
            f.write(stale)
        rc, out = check("--known-undocumented", known)
        expect(rc == 1, "an api.md edited by hand fails the check (exit %d)" % rc)
        expect("out of date with the headers; run python3 scripts/gen_api_docs.py" in out,
               "... and the check says to run the generator")
        expect("-A line added by hand." in out, "... and shows the difference")
        rc, out = gen(root, "--include-dir", inc, "--output", page)
        with open(page, encoding="utf-8") as f:
            expect(rc == 0 and f.read() == md, "regenerating repairs it, byte for byte")

        # api.md missing.
        os.remove(page)
        rc, out = check("--known-undocumented", known)
        expect(rc == 1 and "missing" in out, "a missing api.md fails the check")
        with open(page, "w", encoding="utf-8") as f:
            f.write(md)

        # The list may only shrink: a documented or undeclared name on it fails.
        with open(known, "a", encoding="utf-8") as f:
            f.write("csr_spmv\nno_such_function\n")
        rc, out = check("--known-undocumented", known)
        expect(rc == 1 and "csr_spmv is documented now: take it off the list" in out and
               "no_such_function is no longer declared" in out,
               "a list naming a documented or an undeclared function fails the check")


def parser(root):
    sys.path.insert(0, os.path.join(root, "scripts"))
    import gen_api_docs as g

    h = g.Header(os.path.join(root, "tests", "docs", "fixture.h"), "include/fixture.h")
    items = {it.name: it for it in h.items if it.kind in ("function", "variable", "type",
                                                           "macro")}
    kinds = {n: it.kind for n, it in items.items()}

    def doc(name):
        return items[name].doc if name in items else None

    expect(h.guard == "FIXTURE_H" and "FIXTURE_H" not in items, "the include guard is no macro")
    expect(h.intro.startswith("fixture.h: a header"), "the opening comment is the introduction")
    expect("fx_hidden" not in items and doc("fx_visible") == "Visible: in the #else branch.",
           "#if/#else: the branch a C compiler takes, the other dropped")
    expect(items.get("FX_NODISCARD") is not None and
           items["FX_NODISCARD"].code.endswith("__attribute__((warn_unused_result))"),
           "#if defined(__GNUC__): the GNU branch of an attribute macro")
    expect(doc("FX_VERSION") == "Version of the fixture." and
           doc("FX_MAX") == "the larger of a and b", "macros: /** before and /**< after")
    expect(items.get("FX_LONG") is not None and
           items["FX_LONG"].code == "#define FX_LONG(x) ((x) + 1)",
           "a macro continued over two lines")
    expect(kinds.get("fx_multi") == "function" and doc("fx_multi") ==
           "A declaration over several lines,\nwith attributes before and after." and
           items["fx_multi"].code == "FX_NODISCARD int fx_multi(int a, const char *b, "
           "double (*callback)(void *user, int k), size_t n);",
           "a multi-line declaration with a function pointer parameter and attributes")
    expect(kinds.get("fx_old") == "function" and "FX_DEPRECATED" not in items.get("fx_old").name,
           "an attribute-like macro call in front of a declaration")
    expect(doc("fx_pure") is not None and doc("fx_pure").startswith("Pure"),
           "a doc comment reaches its declaration across an #if attribute block")
    expect(doc("fx_trailing") == "documented after the declaration",
           "a /**< after a function documents it")
    expect(kinds.get("fx_undocumented") == "function" and doc("fx_undocumented") == "",
           "an undocumented function is found and known as undocumented")
    expect(kinds.get("fx_callback") == "type" and kinds.get("fx_opaque") == "type",
           "function pointer and opaque typedefs")
    rec = items.get("fx_record")
    members = dict(rec.members) if rec else {}
    expect(members.get("int a, b") == "two ints" and
           members.get("const char *name") == "a name that goes on\nover two lines" and
           members.get("void (*on_event)(void *user, int event)") == "Called on each event." and
           members.get("union { int i; double d; } value") == "a nested union" and
           members.get("size_t plain") == "", "struct members and their comments")
    kind = items.get("fx_kind")
    values = dict(kind.members) if kind else {}
    expect(values == {"FX_A = 0": "first", "FX_B = -2": "negative",
                      "FX_C = 1u << 3": "documented before", "FX_D": "last, without a comma"},
           "enum values and their comments (before or after the comma, the last without one)")
    expect(doc("enum { FX_FLAG_X, ... }") == "Flags (an anonymous enum).", "an anonymous enum")
    expect(kinds.get("fx_twice") == "function" and
           items["fx_twice"].code == "static inline int fx_twice(int x);",
           "an inline function: its prototype")
    expect(kinds.get("fx_global") == "variable" and doc("fx_global") == "A global.",
           "an extern variable")
    expect(kinds.get("fx_undocumented_struct") == "type" and not doc("fx_undocumented_struct"),
           "an undocumented struct")
    sections = [(it.level, it.name) for it in h.items if it.kind == "section"]
    expect(sections == [(1, "First section"), (2, "a minor section")], "section comments")
    expect(any(it.kind == "prose" and it.doc == "Its prose follows the title." for it in h.items),
           "a section title's trailing words become prose")
    expect(not any("clang-format" in it.doc for it in h.items if it.kind == "prose"),
           "comments for tools (clang-format off) are left out")

    # The check names both undocumented declarations; generating twice gives the same bytes.
    with tempfile.TemporaryDirectory() as tmp:
        inc = os.path.join(tmp, "include")
        os.mkdir(inc)
        shutil.copy(os.path.join(root, "tests", "docs", "fixture.h"), inc)
        page = os.path.join(tmp, "api.md")
        rc1, _ = gen(root, "--include-dir", inc, "--output", page)
        with open(page, "rb") as f:
            first = f.read()
        rc2, _ = gen(root, "--include-dir", inc, "--output", page)
        with open(page, "rb") as f:
            expect(rc1 == 0 and rc2 == 0 and f.read() == first, "output is deterministic")
        rc, out = gen(root, "--check", "--include-dir", inc, "--output", page)
        expect(rc == 1 and "function fx_undocumented has no doc comment" in out and
               "struct fx_undocumented_struct has no doc comment" in out and
               out.count("error:") == 2, "the check names exactly the two undocumented ones")
        # A header the generator cannot read is exit 2 with the place, not a traceback.
        with open(os.path.join(inc, "broken.h"), "w", encoding="utf-8") as f:
            f.write("#if 1\nint f(void);\n")
        rc, out = gen(root, "--check", "--include-dir", inc, "--output", page)
        expect(rc == 2 and "include/broken.h" in out and "Traceback" not in out,
               "an unterminated #if is reported as such (exit 2)")


def main(argv):
    if len(argv) != 3 or argv[1] not in ("detects", "parser"):
        print("usage: %s detects|parser ROOT" % argv[0], file=sys.stderr)
        return 2
    {"detects": detects, "parser": parser}[argv[1]](os.path.abspath(argv[2]))
    if FAILURES:
        print("%d case(s) failed" % len(FAILURES))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
