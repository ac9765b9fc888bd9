#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks that libcsr's dependencies point one way:

    apps -> public headers -> front ends -> core (dispatch, services) -> backends

over the #include lines and the function calls of every C and CUDA source. The layers, by folder:

    app      apps/                        the public headers only
    public   include/                     declarations
    front    src/ops src/graph src/solve  argument checks, plans, dispatch; may call each other,
             src/io src/mmio src/dist     core, shared arithmetic and any public function
    core     src/core                     context, objects, errors, dispatch, caches: calls core
                                          and shared arithmetic only (backends only through the
                                          table)
    shared   src/kernels                  arithmetic shared by front ends and backends: calls core
                                          and shared arithmetic only
    backend  src/ref src/omp cuda         calls core, shared arithmetic and its own functions;
                                          never a front end, another backend or a public function

A call is a name followed by '(' that some file of the tree defines (a definition: the name at the
start of a declaration whose parameter list is followed by '{'). Exits 1 and prints each breach
(file:line: what calls what, and the rule) when there is one, else 0.

    python3 scripts/check_layers.py [ROOT]     check the tree at ROOT (default: this checkout)
    python3 scripts/check_layers.py --self-test check that the checker finds planted breaches
"""
import os
import re
import sys
import tempfile

LAYERS = [
    ("apps", "app"),
    ("include", "public"),
    ("src/ops", "front"),
    ("src/graph", "front"),
    ("src/solve", "front"),
    ("src/io", "front"),
    ("src/mmio", "front"),
    ("src/dist", "front"),
    ("src/core", "core"),
    ("src/kernels", "shared"),
    ("src/ref", "backend"),
    ("src/omp", "backend"),
    ("cuda", "backend"),
]
SOURCE = re.compile(r"\.(c|h|cu|cuh)$")
# The folder an include names decides its layer: "ops/ops.h" is a front end's header.
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
INCLUDE_LAYER = {
    "core": "core",
    "kernels": "shared",
    "ops": "front",
    "graph": "front",
    "solve": "front",
    "io": "front",
    "mmio": "front",
    "dist": "front",
    "ref": "backend",
    "omp": "backend",
}
# A definition: at the start of a line, a return type and the name, then its parameters and '{'.
DEFINITION = re.compile(
    r'^(?:extern\s+"C"\s+)?(?:(?:static|inline|__host__|__device__|__forceinline__|CSRI_HD)\s+)*'
    r"[A-Za-z_][\w \*]*?\b(csri?_\w+)\s*\(",
    re.M,
)
CALL = re.compile(r"\b(csri?_\w+)\s*\(")
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
STRING = re.compile(r'"(?:\\.|[^"\\\n])*"')


def layer_of(path):
    for folder, layer in LAYERS:
        if path == folder or path.startswith(folder + "/"):
            return layer, folder
    return None, None


def blank(m):
    return re.sub(r"[^\n]", " ", m.group(0))


def strip(text):
    """Comments and strings blanked, newlines kept, so that offsets still give line numbers."""
    text = COMMENT.sub(blank, text)
    return STRING.sub(lambda m: '"' + " " * (len(m.group(0)) - 2) + '"', text)


def is_definition(text, start):
    """Whether the parameter list opening at text[start] (a '(') is followed by a body."""
    depth = 0
    for i in range(start, len(text)):
        c = text[i]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                rest = text[i + 1 :].lstrip()
                return rest.startswith("{")
    return False


def sources(root):
    for folder, _ in LAYERS:
        base = os.path.join(root, folder)
        for dirpath, _, names in os.walk(base):
            for name in sorted(names):
                if SOURCE.search(name):
                    full = os.path.join(dirpath, name)
                    yield os.path.relpath(full, root).replace(os.sep, "/"), full


def public_names(root):
    names = set()
    for rel, full in sources(root):
        if rel.startswith("include/"):
            names.update(re.findall(r"\b(csr_\w+)\s*\(", strip(open(full, errors="replace").read())))
    return names


def check(root):
    texts, includes, defined = {}, {}, {}
    for rel, full in sources(root):
        raw = open(full, errors="replace").read()
        includes[rel] = COMMENT.sub(blank, raw)
        texts[rel] = strip(raw)
        for m in DEFINITION.finditer(texts[rel]):
            if is_definition(texts[rel], m.end() - 1):
                defined.setdefault(m.group(1), rel)
    public = public_names(root)
    breaches = []

    def breach(rel, text, at, what):
        breaches.append("%s:%d: %s" % (rel, text.count("\n", 0, at) + 1, what))

    for rel, text in texts.items():
        layer, folder = layer_of(rel)
        for m in INCLUDE.finditer(includes[rel]):
            target = m.group(1)
            head = target.split("/")[0] if "/" in target else None
            if layer == "app" and head is not None:
                breach(rel, text, m.start(), 'an app includes "%s": apps use the public headers'
                       % target)
                continue
            to = INCLUDE_LAYER.get(head)
            if to is None:
                continue
            if layer in ("core", "shared", "backend") and to == "front":
                breach(rel, text, m.start(), 'the %s layer includes a front end\'s "%s"'
                       % (layer, target))
            elif layer in ("core", "shared", "front") and to == "backend":
                breach(rel, text, m.start(), 'the %s layer includes a backend\'s "%s"'
                       % (layer, target))
            elif layer == "backend" and to == "backend" and folder.split("/")[-1] != head:
                breach(rel, text, m.start(), 'a backend includes another backend\'s "%s"'
                       % target)
        for m in CALL.finditer(text):
            name = m.group(1)
            home = defined.get(name)
            if home is None or home == rel:
                continue
            to, to_folder = layer_of(home)
            where = "%s (%s)" % (name, home)
            if layer == "app":
                if name.startswith("csri_"):
                    breach(rel, text, m.start(), "an app calls the internal %s" % where)
            elif layer in ("core", "shared"):
                if name in public and layer == "shared":
                    breach(rel, text, m.start(), "shared arithmetic calls the public %s: call "
                           "the core service it wraps" % where)
                elif to in ("front", "backend"):
                    breach(rel, text, m.start(), "the %s layer calls the %s %s: it may call core "
                           "and shared arithmetic only" % (layer, to, where))
            elif layer == "backend":
                if name in public:
                    breach(rel, text, m.start(), "a backend calls the public %s: call the core "
                           "service it wraps" % where)
                elif to == "front":
                    breach(rel, text, m.start(), "a backend calls the front end's %s" % where)
                elif to == "backend" and to_folder != folder:
                    breach(rel, text, m.start(), "a backend calls another backend's %s" % where)
            elif layer == "front" and to == "backend":
                breach(rel, text, m.start(), "a front end calls the backend's %s: dispatch "
                       "through the backend table" % where)
    return breaches


def self_test():
    """Plants one breach of each rule in a small tree and checks that each is found."""
    files = {
        "include/csr.h": "int csr_thing(int x);\n",
        "src/core/a.c": '#include "ops/ops.h"\nint csri_core_a(void) { return csri_front_f(); }\n',
        "src/ops/f.c": "int csri_front_f(void) { return csri_ref_r(); }\n"
        "int csr_thing(int x) { return x; }\n",
        "src/ref/r.c": "int csri_ref_r(void) {\n  return csr_thing(1) + csri_front_f();\n}\n",
        "src/omp/o.c": '#include "ref/ref.h"\nint csri_omp_o(void) { return csri_ref_r(); }\n',
        "src/kernels/k.h": "static inline int csri_k(void) { return csr_thing(2); }\n",
        "apps/app.c": '#include "core/internal.h"\nint main(void) { return csri_core_a(); }\n',
        "cuda/fine.cu": "/* csr_thing( in a comment */\nint csri_cuda_c(void) "
        '{ const char *s = "csri_front_f()"; return csri_core_a() + (s != 0); }\n',
    }
    expected = [
        "src/core/a.c:1: the core layer includes a front end",
        "src/core/a.c:2: the core layer calls the front",
        "src/ops/f.c:1: a front end calls the backend's csri_ref_r",
        "src/ref/r.c:2: a backend calls the public csr_thing",
        "src/ref/r.c:2: a backend calls the front end's csri_front_f",
        "src/omp/o.c:1: a backend includes another backend's",
        "src/omp/o.c:2: a backend calls another backend's csri_ref_r",
        "src/kernels/k.h:1: shared arithmetic calls the public csr_thing",
        "apps/app.c:1: an app includes",
        "apps/app.c:2: an app calls the internal csri_core_a",
    ]
    with tempfile.TemporaryDirectory() as root:
        for rel, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w") as f:
                f.write(text)
        found = check(root)
    missing = [e for e in expected if not any(b.startswith(e) for b in found)]
    extra = [b for b in found if not any(b.startswith(e) for e in expected)]
    for e in missing:
        print("self-test: not found: " + e)
    for b in extra:
        print("self-test: not planted: " + b)
    print("self-test: %d planted breaches, %d found, %d not planted"
          % (len(expected), len(expected) - len(missing), len(extra)))
    return 1 if missing or extra else 0


def main(argv):
    if len(argv) > 1 and argv[1] == "--self-test":
        return self_test()
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    breaches = check(root)
    for b in breaches:
        print(b)
    if breaches:
        print("%d calls or includes against the layers (scripts/check_layers.py says the rules)"
              % len(breaches))
        return 1
    print("layers: every include and call points one way")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
