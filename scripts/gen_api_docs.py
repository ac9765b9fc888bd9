#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Writes docs/api.md, the API reference, from the doc comments of the public headers.

    python3 scripts/gen_api_docs.py            rewrite docs/api.md
    python3 scripts/gen_api_docs.py --check    exit 1 when a public function or type has no doc
                                               comment, or docs/api.md differs from what this
                                               script would write (writes nothing)

Every header in include/ is public, and so is every function, type, variable and macro it
declares (the include guard aside). A declaration is documented by a `/** ... */` (or `///`)
comment right before it, or a `/**< ... */` (`///<`) comment after it on the line where it ends;
struct members and enum values by either form too. A header's section comments (a plain
comment framed by lines of dashes, or a one-line `/* --- title --- */`) become the page's
headings, its other plain comments between declarations become prose, and its opening comment
its introduction. `#if` blocks are read the way a C compiler (gcc or clang, not C++) would
(`defined(__GNUC__)` true, `__cplusplus` false); an expression this script cannot evaluate keeps
its first branch. Signatures are shown as declared, GNU attributes (`__attribute__((...))`)
left out. The output depends only on the headers' text, so the check compares it byte for byte.

Options, for tests and other trees:
    --include-dir DIR          headers to read (default: the repository's include/)
    --output FILE              the page to write or check (default: the repository's docs/api.md)
    --known-undocumented FILE  names (one per line, '#' starts a comment) whose missing doc
                               comment --check reports as a note instead of an error; a listed
                               name that is documented, or no longer declared, is an error, so
                               the list can only shrink

Exit status: 0 fine, 1 the check failed, 2 a header could not be read or parsed.
Standard library only.
"""

import argparse
import difflib
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REGENERATE = "python3 scripts/gen_api_docs.py"
FIRST_HEADER = "csr.h"  # the main header comes first on the page, then the others by name

# How #if conditions are read: what gcc/clang define for C, what they do not.
PREDEFINED = {"__GNUC__": "12", "__clang__": "0", "__STDC__": "1", "__STDC_VERSION__": "201112"}
NOT_DEFINED = {"__cplusplus", "__CUDACC__", "__NVCC__", "_MSC_VER"}

CODE_KINDS = ("ident", "num", "str", "punct")
# Comments addressed to tools, left off the page.
TOOL_COMMENT = re.compile(
    r"^\s*(clang-format (on|off)|NOLINT|IWYU pragma|cppcheck-suppress|SPDX-License-Identifier:)"
)


class HeaderError(Exception):
    pass


# --- lexing --------------------------------------------------------------------------------------


class Tok:
    """kind: ident, num, str, punct (C tokens); pp (a whole preprocessor line, continuations
    joined, comments removed); doc (/** */, ///); trail (/**< */, ///<); comment (any other
    comment); blank (an empty line)."""

    __slots__ = ("kind", "text", "line")

    def __init__(self, kind, text, line):
        self.kind, self.text, self.line = kind, text, line

    def __repr__(self):
        return "Tok(%s, %r, %d)" % (self.kind, self.text, self.line)


PUNCTS = ("...", "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
          "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##")
IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
NUMBER_RE = re.compile(r"[0-9A-Za-z_.]+")


def lex(text, name):
    toks = []
    i, n, line = 0, len(text), 1
    line_start = True  # only blanks since the last newline
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
            line_start = True
            j = i
            while j < n and text[j] in " \t\r\f\v":
                j += 1
            if j < n and text[j] == "\n" and toks and toks[-1].kind != "blank":
                toks.append(Tok("blank", "", line))
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if text.startswith("\\\n", i):
            i += 2
            line += 1
            continue
        if c == "#" and line_start:
            start = line
            buf, comments = [], []
            while i < n and text[i] != "\n":
                if text.startswith("\\\n", i):
                    buf.append(" ")
                    i += 2
                    line += 1
                elif text.startswith("/*", i):
                    end = text.find("*/", i + 2)
                    if end < 0:
                        raise HeaderError("%s:%d: unterminated comment" % (name, line))
                    body = text[i:end + 2]
                    comments.append(comment_tok(body, line))
                    line += body.count("\n")
                    buf.append(" ")
                    i = end + 2
                elif text.startswith("//", i):
                    end = text.find("\n", i)
                    end = n if end < 0 else end
                    comments.append(comment_tok(text[i:end], line))
                    i = end
                else:
                    buf.append(text[i])
                    i += 1
            toks.append(Tok("pp", re.sub(r"\s+", " ", "".join(buf)).strip(), start))
            # A /**< on the line documents the macro; plain comments there (#endif /* X */) go.
            toks.extend(t for t in comments if t.kind == "trail")
            continue
        line_start = False
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise HeaderError("%s:%d: unterminated comment" % (name, line))
            body = text[i:end + 2]
            toks.append(comment_tok(body, line))
            line += body.count("\n")
            i = end + 2
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            toks.append(comment_tok(text[i:end], line))
            i = end
        elif c.isalpha() or c == "_":
            m = IDENT_RE.match(text, i)
            toks.append(Tok("ident", m.group(0), line))
            i = m.end()
        elif c.isdigit() or (c == "." and i + 1 < n and text[i + 1].isdigit()):
            m = NUMBER_RE.match(text, i)
            toks.append(Tok("num", m.group(0), line))
            i = m.end()
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            toks.append(Tok("str", text[i:j + 1], line))
            i = j + 1
        else:
            p = next((p for p in PUNCTS if text.startswith(p, i)), c)
            toks.append(Tok("punct", p, line))
            i += len(p)
    return toks


def comment_tok(body, line):
    """A comment token: classified, markers and the ' * ' line prefixes removed."""
    if body.startswith("//"):
        if body.startswith("///<") or body.startswith("//!<"):
            return Tok("trail", body[4:].strip(), line)
        if (body.startswith("///") and not body.startswith("////")) or body.startswith("//!"):
            return Tok("doc", body[3:].strip(), line)
        return Tok("comment", body[2:].strip(), line)
    inner = body[2:-2]
    if inner.startswith(("*<", "!<")):
        return Tok("trail", clean_block(inner[2:]), line)
    if (inner.startswith("*") and not inner.startswith("**") and inner != "*") or \
            inner.startswith("!"):
        return Tok("doc", clean_block(inner[1:]), line)
    return Tok("comment", clean_block(inner), line)


def clean_block(inner):
    """The text of a block comment: ' * ' prefixes and common indentation removed."""
    lines = inner.split("\n")
    out = [lines[0].rstrip()]
    for ln in lines[1:]:
        ln = ln.rstrip()
        m = re.match(r"^\s*\*(?!/) ?(.*)$", ln)
        out.append(m.group(1) if m else ln)
    rest = [ln for ln in out[1:] if ln.strip()]
    if rest:
        indent = min(len(ln) - len(ln.lstrip(" ")) for ln in rest)
        out = [out[0]] + [ln[indent:] for ln in out[1:]]
    while out and not out[-1].strip():
        out.pop()
    while out and not out[0].strip():
        out.pop(0)
    if out:
        out[0] = out[0].strip()
    return "\n".join(out)


# --- preprocessor conditions ---------------------------------------------------------------------


def eval_condition(expr, defined):
    """Truth of an #if expression; one this cannot read counts as true (first branch kept)."""

    def is_defined(name):
        return name not in NOT_DEFINED and (name in PREDEFINED or name in defined)

    e = re.sub(r"\bdefined\s*\(\s*(\w+)\s*\)|\bdefined\s+(\w+)",
               lambda m: " 1 " if is_defined(m.group(1) or m.group(2)) else " 0 ", expr)

    def value(m):
        name = m.group(0)
        v = PREDEFINED.get(name, defined.get(name))
        return v.strip() if v and re.fullmatch(r"\s*-?\d+\s*", v) else "0"

    e = re.sub(r"\b(\d+)[uUlL]+\b", r"\1", e)
    e = re.sub(r"\b[A-Za-z_]\w*\b", value, e)
    e = e.replace("&&", " and ").replace("||", " or ")
    e = re.sub(r"!(?!=)", " not ", e)
    if not re.fullmatch(r"[\d\s()+\-*/%<>=!andort]*", e):
        return True
    try:
        return bool(eval(e, {"__builtins__": {}}, {}))  # digits, operators and/or/not only
    except Exception:
        return True


def preprocess(toks, name):
    """Drops the tokens of inactive #if branches, the include guard and the directives that
    declare nothing (#include, #pragma, ...). Returns (tokens, guard macro)."""
    out = []
    defined = dict()
    stack = []  # (branch active, a branch was taken, enclosing active)
    active = True
    guard_candidate, guard = None, None
    code_seen = False
    for t in toks:
        if t.kind != "pp":
            if active:
                out.append(t)
                code_seen = code_seen or t.kind in CODE_KINDS
            continue
        m = re.match(r"#\s*(\w*)\s*(.*)$", t.text)
        d, rest = m.group(1), m.group(2).strip()
        if d in ("if", "ifdef", "ifndef"):
            if d == "ifdef":
                cond = eval_condition("defined(%s)" % rest, defined)
            elif d == "ifndef":
                if not code_seen and guard_candidate is None and not stack:
                    guard_candidate = rest
                cond = not eval_condition("defined(%s)" % rest, defined)
            else:
                cond = eval_condition(rest, defined)
            stack.append((active and cond, cond, active))
            active = active and cond
        elif d in ("elif", "else", "endif"):
            if not stack:
                raise HeaderError("%s:%d: #%s without #if" % (name, t.line, d))
            _, taken, parent = stack.pop()
            if d == "endif":
                active = parent
                continue
            cond = (not taken) and (d == "else" or eval_condition(rest, defined))
            stack.append((parent and cond, taken or cond, parent))
            active = parent and cond
        elif d == "define" and active:
            dm = re.match(r"(\w+)(\([^)]*\))?\s*(.*)$", rest)
            if not dm:
                raise HeaderError("%s:%d: unreadable #define" % (name, t.line))
            macro = dm.group(1)
            defined[macro] = None if dm.group(2) else dm.group(3)
            if macro == guard_candidate and guard is None and not code_seen:
                guard = macro
                continue
            out.append(t)
            code_seen = True
        elif d == "undef" and active:
            defined.pop(rest.split()[0] if rest else "", None)
    if stack:
        raise HeaderError("%s: unterminated #if" % name)
    return out, guard


# --- parsing -------------------------------------------------------------------------------------


class Item:
    """An entry of the page. kind: section (level 1 or 2), prose, macro, function, variable,
    type."""

    def __init__(self, kind, name="", code="", doc="", line=0, **kw):
        self.kind, self.name, self.code, self.doc, self.line = kind, name, code, doc, line
        self.level = kw.get("level", 0)
        self.members = kw.get("members", [])  # (code, doc) of struct members / enum values
        self.blank_before = kw.get("blank_before", False)
        self.alias = kw.get("alias", "")  # macro: the identifier it stands for
        self.what = kw.get("what", "")  # type: struct, enum, union, typedef

    @property
    def documented(self):
        return bool(self.doc.strip())


def code_only(toks):
    return [t for t in toks if t.kind in CODE_KINDS]


def strip_attributes(toks):
    """Drops __attribute__((...)), __declspec(...), __asm__(...) and __extension__."""
    out, i = [], 0
    while i < len(toks):
        t = toks[i]
        if t.kind == "ident" and t.text in ("__attribute__", "__declspec", "__asm__", "__asm"):
            i += 1
            if i < len(toks) and toks[i].text == "(":
                depth = 0
                while i < len(toks):
                    depth += {"(": 1, ")": -1}.get(toks[i].text, 0)
                    i += 1
                    if depth == 0:
                        break
            continue
        if not (t.kind == "ident" and t.text == "__extension__"):
            out.append(t)
        i += 1
    return out


UNARY_CONTEXT = ("=", "(", ",", "[", "+", "-", "*", "/", "%", "<<", ">>", "|", "&", "^", "~",
                 "!", "?", ":", "return")


def join_tokens(toks):
    """C text of tokens, spaced as clang-format would write a declaration."""
    out = ""
    in_value = False  # after '=' (an enumerator's value): '*' is multiplication there
    for k, t in enumerate(toks):
        s = t.text
        if k == 0:
            out = s
            in_value = s == "="
            continue
        p, pk = toks[k - 1].text, toks[k - 1].kind
        nxt = toks[k + 1].text if k + 1 < len(toks) else ""
        pp = toks[k - 2].text if k >= 2 else "("
        if s in (",", ";", ")", "]"):
            tight = True
        elif p in ("(", "[", "~", "!"):
            tight = True
        elif s == "(":
            # f(...) and (*f)(...) are tight; the '(' of a declarator '(*f)' is not.
            tight = (pk == "ident" and nxt != "*") or p == ")"
        elif s == "[":
            tight = True
        elif s in (".", "->") or p in (".", "->", "##", "#"):
            tight = True
        elif p == "*" and not in_value:
            tight = True  # a declarator's '*' sticks to what follows
        elif s == "*" and p == "*":
            tight = True
        elif p in ("-", "+") and (pp in UNARY_CONTEXT or k == 1):
            tight = True  # unary minus or plus
        else:
            tight = False
        out += s if tight else " " + s
        if s == "=":
            in_value = True
        elif s == ",":
            in_value = False
    return out


def split_top(toks, sep):
    """Splits tokens at `sep` outside (), [] and {}."""
    parts, cur, depth = [], [], 0
    for t in toks:
        if t.kind == "punct" and t.text in ("(", "[", "{"):
            depth += 1
        elif t.kind == "punct" and t.text in (")", "]", "}"):
            depth -= 1
        if depth == 0 and t.kind == "punct" and t.text == sep:
            parts.append(cur)
            cur = []
        else:
            cur.append(t)
    parts.append(cur)
    return parts


def declarator_name(words):
    """The identifier a declarator (without its type keywords) declares: the one in '(*name)',
    else the last identifier outside (), [] and {}."""
    for k in range(len(words) - 2):
        if words[k].text == "(" and words[k + 1].text == "*" and words[k + 2].kind == "ident":
            return words[k + 2].text
    depth, last = 0, None
    for t in words:
        if t.text in ("(", "[", "{"):
            depth += 1
        elif t.text in (")", "]", "}"):
            depth -= 1
        elif depth == 0 and t.kind == "ident":
            last = t.text
    return last


def section_title(text):
    """(level, title, prose) when a plain comment is a section comment, else None. Level 1: the
    first and last lines are dashes, the title between ('Title. More words' -> title 'Title',
    the rest prose). Level 2: a one-line '--- title ---'."""
    lines = [ln.strip() for ln in text.split("\n")]
    dash = re.compile(r"^-{3,}$")
    if len(lines) >= 3 and dash.match(lines[0]) and dash.match(lines[-1]):
        body = [ln for ln in lines[1:-1] if ln]
        title = body[0] if body else ""
        depth = 0
        for k, ch in enumerate(title):
            depth += {"(": 1, ")": -1}.get(ch, 0)
            if depth == 0 and title.startswith(". ", k):
                return 1, title[:k], " ".join([title[k + 2:]] + body[1:])
        return 1, title, " ".join(body[1:])
    if len(lines) == 1:
        m = re.match(r"^-{3,}\s*(.*?)\s*-{3,}$", lines[0])
        if m and m.group(1):
            return 2, m.group(1), ""
    return None


class Header:
    def __init__(self, path, display):
        self.display = display  # include/<name>
        self.short = os.path.basename(display)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        toks, self.guard = preprocess(lex(text, display), display)
        self.intro = ""
        self.items = []
        self.function_like = set()
        self.walk(toks)
        # A function declared under a macro name (#define mm_read_banner csr_mm_read_banner)
        # is exported under the macro's value.
        macros = {it.name: it for it in self.items if it.kind == "macro"}
        for it in self.items:
            if it.kind == "function" and it.name in macros and macros[it.name].alias:
                it.alias = macros[it.name].alias

    def fail(self, line, msg):
        raise HeaderError("%s:%d: %s" % (self.display, line, msg))

    def walk(self, toks):
        pending = None  # the doc comment waiting for its declaration: (text, line)
        blank = False  # an empty line since the last item
        decl, depth = [], 0
        last, last_line = None, -1  # the last item and the line it ended on (for /**<)
        extern_c = 0
        started = False  # a declaration or a directive has been seen
        i = 0

        def flush_pending_as_prose():
            nonlocal pending
            if pending is not None:
                self.items.append(Item("prose", doc=pending[0], line=pending[1]))
                pending = None

        while i < len(toks):
            t = toks[i]
            i += 1
            if decl:
                if t.kind == "pp":
                    self.fail(t.line, "a #define inside a declaration")
                if t.kind == "punct" and t.text in ("(", "[", "{"):
                    depth += 1
                elif t.kind == "punct" and t.text in (")", "]", "}"):
                    depth -= 1
                ends = depth == 0 and t.kind == "punct" and (
                    t.text == ";" or (t.text == "}" and is_function_definition(decl)))
                if not ends:
                    decl.append(t)
                    continue
                if t.text == "}":
                    decl.append(t)
                last = self.declaration(decl, pending, blank)
                last_line = t.line
                pending, blank, decl = None, False, []
                continue
            if t.kind == "blank":
                blank = True
            elif t.kind == "doc":
                flush_pending_as_prose()
                pending = (t.text, t.line)
            elif t.kind == "trail":
                if last is None or t.line != last_line:
                    self.fail(t.line, "a /**< comment after no declaration on its line")
                last.doc = (last.doc + "\n" + t.text) if last.doc else t.text
            elif t.kind == "comment":
                if TOOL_COMMENT.match(t.text):
                    continue  # clang-format off, NOLINT, ...: for tools, not readers
                flush_pending_as_prose()
                if not started and not self.intro and not self.items:
                    self.intro = t.text
                    continue
                sec = section_title(t.text)
                if sec:
                    self.items.append(Item("section", name=sec[1], level=sec[0], line=t.line))
                    if sec[2]:
                        self.items.append(Item("prose", doc=sec[2], line=t.line))
                elif t.text.strip():
                    self.items.append(Item("prose", doc=t.text, line=t.line))
                blank = False
            elif t.kind == "pp":
                started = True
                m = re.match(r"#\s*define\s+(\w+)(\([^)]*\))?\s*(.*)$", t.text)
                name, params, value = m.group(1), m.group(2) or "", m.group(3)
                if params:
                    self.function_like.add(name)
                item = Item("macro", name=name, line=t.line, blank_before=blank,
                            code=("#define %s%s %s" % (name, params, value)).rstrip(),
                            doc=pending[0] if pending else "")
                if not params and IDENT_RE.fullmatch(value):
                    item.alias = value
                self.items.append(item)
                last, last_line = item, t.line
                pending, blank = None, False
            elif t.kind == "ident" and t.text == "extern" and i < len(toks) and \
                    toks[i].kind == "str" and toks[i].text == '"C"':
                started = True
                if i + 1 < len(toks) and toks[i + 1].text == "{":
                    extern_c += 1
                    i += 2
                else:
                    i += 1  # extern "C" in front of one declaration
            elif t.kind == "punct" and t.text == "}" and extern_c > 0:
                extern_c -= 1
            elif t.kind == "punct" and t.text == ";":
                pass
            else:
                started = True
                decl = [t]
                depth = 1 if t.kind == "punct" and t.text in ("(", "[", "{") else 0
        if decl:
            self.fail(decl[0].line, "a declaration without its ';'")
        flush_pending_as_prose()

    def declaration(self, toks, pending, blank):
        """Classifies a top-level declaration and adds its item."""
        doc = pending[0] if pending else ""
        line = next((t.line for t in toks if t.kind in CODE_KINDS), toks[0].line)
        words = strip_attributes(code_only(toks))
        if not words:
            self.fail(line, "an empty declaration")
        brace = next((k for k, t in enumerate(words) if t.text == "{"), None)
        head = words[:brace] if brace is not None else words
        if brace is not None and not is_function_definition(words) and any(
                t.text in ("struct", "union", "enum") for t in head):
            return self.aggregate(toks, words, brace, doc, line, blank)
        if brace is not None:
            words = words[:brace]  # an inline function: its prototype
        # Comments inside a declaration (between parameters): /** and /**< add to its doc;
        # plain ones are dropped.
        for t in toks:
            if t.kind in ("doc", "trail"):
                doc = (doc + "\n" + t.text) if doc else t.text
        if words[0].text == "typedef":
            name = declarator_name(split_top(words[1:], ",")[0]) or "?"
            item = Item("type", name=name, code=join_tokens(words) + ";", doc=doc, line=line,
                        blank_before=blank, what="typedef")
        elif len(words) == 2 and words[0].text in ("struct", "union", "enum"):
            item = Item("type", name=words[1].text, code=join_tokens(words) + ";", doc=doc,
                        line=line, blank_before=blank, what=words[0].text)
        else:
            fname = self.function_name(words)
            if fname:
                item = Item("function", name=fname, code=join_tokens(words) + ";", doc=doc,
                            line=line, blank_before=blank)
            else:
                item = Item("variable", name=declarator_name(split_top(words, ",")[0]) or "?",
                            code=join_tokens(words) + ";", doc=doc, line=line,
                            blank_before=blank)
        self.items.append(item)
        return item

    def function_name(self, words):
        """The name of the function `words` declares, or None (a variable, even of function
        pointer type: its declarator is '(*name)')."""
        for k, t in enumerate(words):
            if t.text != "(":
                continue
            if k == 0 or words[k - 1].kind != "ident":
                return None
            prev = words[k - 1].text
            if prev in self.function_like or re.fullmatch(r"__\w+__", prev):
                continue  # an attribute-like macro call in front: not the declarator
            return prev
        return None

    def aggregate(self, toks, words, brace, doc, line, blank):
        """struct/union/enum with a body: typedef'd, tagged or anonymous."""
        typedef = words[0].text == "typedef"
        kw_at = next(k for k, t in enumerate(words) if t.text in ("struct", "union", "enum"))
        what = words[kw_at].text
        tag = words[brace - 1].text if brace - 1 > kw_at and words[brace - 1].kind == "ident" \
            else ""
        # The body in the original tokens (comments kept) and what follows its '}'.
        start = next(k for k, t in enumerate(toks) if t.text == "{")
        depth, end = 0, None
        for k in range(start, len(toks)):
            depth += {"{": 1, "}": -1}.get(toks[k].text, 0)
            if depth == 0:
                end = k
                break
        body = toks[start + 1:end]
        after = strip_attributes(code_only(toks[end + 1:]))
        members = enum_members(body) if what == "enum" else struct_members(body)
        if typedef:
            name = declarator_name(split_top(after, ",")[0]) or tag or "?"
        elif tag:
            name = "%s %s" % (what, tag) if after else tag
        else:
            first = members[0][0].split("=")[0].strip() if members else ""
            name = "%s { %s%s }" % (what, first, ", ..." if len(members) > 1 else "")
        if after and not typedef:
            # struct tag { ... } variable;: a variable of a type declared in place.
            kind = "variable"
            name = declarator_name(split_top(after, ",")[0]) or name
        else:
            kind = "type"
        item = Item(kind, name=name, doc=doc, line=line, blank_before=blank, members=members,
                    what=what, code=aggregate_code(words[:brace], what, members, after))
        self.items.append(item)
        return item


def is_function_definition(words):
    """True when the tokens so far are 'prototype {', an inline function in a header."""
    words = strip_attributes(code_only(words))
    brace = next((k for k, t in enumerate(words) if t.text == "{"), None)
    head = words if brace is None else words[:brace]
    return bool(head) and head[-1].text == ")" and not any(
        t.text in ("struct", "union", "enum", "=", "typedef") for t in head)


def enum_members(body):
    """(code, doc) per enumerator. Its doc: a /** before it, a /**< after it (before or after
    its comma)."""
    members = []
    cur, pending = [], None
    for t in body:
        if t.kind == "doc":
            pending = t.text
        elif t.kind == "trail":
            if cur:  # the last enumerator, or a comment before the comma
                members.append([join_tokens(cur), pending or ""])
                cur, pending = [], None
            if members:
                d = members[-1][1]
                members[-1][1] = (d + "\n" + t.text) if d else t.text
        elif t.kind in CODE_KINDS:
            if t.text == ",":
                if cur:
                    members.append([join_tokens(cur), pending or ""])
                cur, pending = [], None
            else:
                cur.append(t)
    if cur:
        members.append([join_tokens(cur), pending or ""])
    return [(c, d) for c, d in members]


def struct_members(body):
    """(code, doc) per member declaration; nested struct/union bodies stay in their member."""
    members = []
    cur, pending, depth = [], None, 0
    for t in body:
        if t.kind == "doc" and depth == 0:
            pending = (pending + "\n" + t.text) if pending else t.text
        elif t.kind == "trail" and depth == 0:
            if cur:  # before the ';'
                pending = (pending + "\n" + t.text) if pending else t.text
            elif members:
                code, d = members[-1]
                members[-1] = (code, (d + "\n" + t.text) if d else t.text)
        elif t.kind in CODE_KINDS:
            if t.text in ("{", "("):
                depth += 1
            elif t.text in ("}", ")"):
                depth -= 1
            if t.text == ";" and depth == 0:
                members.append((join_tokens(strip_attributes(cur)), pending or ""))
                cur, pending = [], None
            else:
                cur.append(t)
    return members


def aggregate_code(head, what, members, after):
    tail = join_tokens(after)
    close = "}" + (" " + tail if tail else "") + ";"
    if what == "enum":
        one_line = "%s { %s } %s;" % (join_tokens(head), ", ".join(c for c, _ in members), tail)
        one_line = one_line.replace(" } ;", " };")
        if len(one_line) <= 100 and not any(d for _, d in members):
            return one_line
        body = ["  %s%s" % (c, "," if k + 1 < len(members) else "")
                for k, (c, _) in enumerate(members)]
    else:
        body = ["  %s;" % c for c, _ in members]
    return "\n".join([join_tokens(head) + " {"] + body + [close])


# --- rendering -----------------------------------------------------------------------------------


class Slugger:
    """GitHub's heading anchors: lower case, characters other than letters, digits, '-', '_'
    and spaces dropped, spaces to '-', '-1', '-2', ... on repeats."""

    def __init__(self):
        self.seen = {}

    def __call__(self, heading):
        base = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        n = self.seen.get(base, 0)
        self.seen[base] = n + 1
        return base if n == 0 else "%s-%d" % (base, n)


def escape_md(text):
    """Escapes Markdown in prose outside `code spans`: '*' and '_' (emphasis), '<' and '>'
    (HTML), '|' (tables), '[' before '(' is left alone since it cannot form a link without ']('."""
    parts = re.split(r"(`[^`\n]*`)", text)
    for k in range(0, len(parts), 2):
        s = parts[k].replace("\\", "\\\\")
        s = s.replace("*", "\\*").replace("<", "&lt;").replace(">", "&gt;")
        s = re.sub(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])", "\\_", s)
        s = s.replace("](", "]\\(")
        parts[k] = s
    return "".join(parts)


def md_text(doc):
    """A comment as Markdown: lines of a paragraph joined, '- ' list items kept apart, and
    an indented block after an empty line kept verbatim as code."""
    out = []  # lines
    para = []  # the paragraph or list item being joined
    lines = doc.split("\n")
    k = 0

    def flush():
        if para:
            out.append(escape_md(" ".join(para)))
            para.clear()

    while k < len(lines):
        ln = lines[k]
        s = ln.strip()
        if not s:
            flush()
            if out and out[-1] != "":
                out.append("")
            k += 1
            continue
        starts_block = not para and (not out or out[-1] == "")
        if starts_block and ln.startswith("  ") and not re.match(r"^\s*(- |\d+\. )", ln):
            # An indented block on its own: code, as written.
            block = []
            while k < len(lines) and lines[k].strip():
                block.append(lines[k])
                k += 1
            indent = min(len(b) - len(b.lstrip(" ")) for b in block)
            out.append("```text")
            out.extend(b[indent:].rstrip() for b in block)
            out.append("```")
            continue
        if re.match(r"^(- |\d+\. )", s):
            flush()
            if out and out[-1] != "" and not re.match(r"^(- |\d+\. )", out[-1]):
                out.append("")  # a list needs an empty line before it
            para.append(s)
        else:
            if para and re.match(r"^(- |\d+\. )", para[0]) and not ln.startswith(" "):
                # An unindented line after a list item ends the list.
                flush()
                out.append("")
            para.append(s)
        k += 1
    flush()
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out)


def md_cell(doc):
    return " ".join(x for x in md_text(doc).split("\n") if x.strip()).replace("|", "\\|")


def wrap_signature(code, width=100):
    """A declaration on one line, or with its parameters wrapped under the '(' the way
    clang-format writes the headers."""
    if len(code) <= width or "(" not in code:
        return code
    # The parameter list: the group that ends at the last ')'.
    depth, k = 0, code.rfind(")")
    for j in range(k, -1, -1):
        depth += {")": 1, "(": -1}.get(code[j], 0)
        if depth == 0:
            k = j
            break
    head, params = code[:k + 1], code[k + 1:]
    parts, depth, cur = [], 0, ""
    for ch in params:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    parts.append(cur.strip())
    indent = " " * len(head)
    lines, cur = [], head
    for n, p in enumerate(parts):
        piece = p + ("," if n + 1 < len(parts) else "")
        sep = "" if cur.endswith("(") or not cur.strip() else " "
        if len(cur) + len(sep) + len(piece) > width and cur.strip() and not cur.endswith("("):
            lines.append(cur)
            cur = indent + piece
        else:
            cur += sep + piece
    lines.append(cur)
    return "\n".join(lines)


def heading_of(it):
    return "`%s`" % it.name


def render(headers):
    slug = Slugger()
    slug("libcsr API reference")
    slug("Contents")
    body, toc = [], []
    for h in headers:
        body.extend(render_header(h, slug, toc))
    out = [
        "# libcsr API reference",
        "",
        "<!-- Generated by scripts/gen_api_docs.py from include/*.h. Do not edit: change the "
        "headers' doc comments and run it again. -->",
        "",
        "This page is generated from the doc comments of the public headers by `%s`: edit the "
        "comments in `include/`, then run it again. `%s --check` (the ctest test `docs_api`) "
        "fails when a public function or type has no doc comment or when this page is out of "
        "date." % (REGENERATE, REGENERATE),
        "",
        "Every call returns a `csr_status` (0 success, > 0 information, < 0 error) unless its "
        "signature says otherwise; each header's introduction below gives its conventions, and "
        "[design.md](design.md) the reasons for them. The user guide is [index.md](index.md).",
        "",
        "## Contents",
        "",
    ]
    out.extend(toc)
    out.append("")
    out.extend(body)
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


def render_header(h, slug, toc):
    out = ["## %s" % h.display, ""]
    toc.append("- [%s](#%s)" % (h.display, slug(h.display)))
    toc_line = None  # index in toc of the current section's line
    if h.intro:
        out.extend([md_text(h.intro), ""])
    level = 3  # of the entries' headings
    has_major = any(it.kind == "section" and it.level == 1 for it in h.items)
    macros = []  # a run of macros without doc comments: one code block

    def flush_macros():
        if macros:
            out.append("```c")
            for k, m in enumerate(macros):
                if k > 0 and m.blank_before:
                    out.append("")
                out.append(m.code)
            out.extend(["```", ""])
            macros.clear()

    def add_to_toc(name, anchor):
        nonlocal toc_line
        link = "[`%s`](#%s)" % (name, anchor)
        if toc_line is None:
            toc.append("  - " + link)
            toc_line = len(toc) - 1
        else:
            sep = ", " if "`" in toc[toc_line] else ": "
            toc[toc_line] += sep + link

    for it in h.items:
        if it.kind == "macro" and not it.documented:
            macros.append(it)
            continue
        flush_macros()
        if it.kind == "section":
            # Minor sections nest under major ones; a header with minor ones only has them on top.
            depth = it.level - 1 if has_major else 0
            anchor = slug(it.name)
            out.extend(["%s %s" % ("#" * (3 + depth), it.name), ""])
            level = 4 + depth
            toc.append("%s- [%s](#%s)" % ("  " * (1 + depth), it.name, anchor))
            toc_line = len(toc) - 1
            continue
        if it.kind == "prose":
            out.extend([md_text(it.doc), ""])
            continue
        heading = heading_of(it)
        anchor = slug(heading)
        out.extend(["%s %s" % ("#" * level, heading), ""])
        if not it.name.startswith(("enum {", "struct {", "union {")):
            add_to_toc(it.name, anchor)
        code = it.code if it.kind in ("macro", "type") else wrap_signature(it.code)
        out.extend(["```c", code, "```", ""])
        if it.alias and it.kind == "function":
            out.extend(["A macro for the exported function `%s`." % it.alias, ""])
        out.extend([md_text(it.doc) if it.documented else "*No doc comment in the header.*", ""])
        if any(doc for _, doc in it.members):
            out.append("| %s | meaning |" % ("value" if it.what == "enum" else "member"))
            out.append("|---|---|")
            for code, doc in it.members:
                out.append("| `%s` | %s |" % (code.replace("|", "\\|"), md_cell(doc)))
            out.append("")
    flush_macros()
    return out


# --- main ----------------------------------------------------------------------------------------


def load_headers(include_dir):
    names = sorted(f for f in os.listdir(include_dir) if f.endswith(".h"))
    names.sort(key=lambda f: (f != FIRST_HEADER, f))
    if not names:
        raise HeaderError("%s: no headers" % include_dir)
    return [Header(os.path.join(include_dir, f), "include/" + f) for f in names]


def read_list(path):
    names = []
    with open(path, encoding="utf-8") as f:
        for ln in f:
            ln = ln.split("#", 1)[0].strip()
            if ln:
                names.append(ln)
    return names


def check(headers, page, output, known_path):
    failed = False
    known = read_list(known_path) if known_path else []
    declared, undocumented = set(), set()
    for h in headers:
        for it in h.items:
            if it.kind not in ("function", "variable", "type"):
                continue
            declared.add(it.name)
            if it.documented:
                continue
            undocumented.add(it.name)
            what = it.what if it.kind == "type" else it.kind
            if it.name in known:
                print("%s:%d: note: %s %s has no doc comment (tolerated: listed in %s)"
                      % (h.display, it.line, what, it.name, known_path))
            else:
                print("%s:%d: error: public %s %s has no doc comment (a /** ... */ before it or a "
                      "/**< ... */ after it)" % (h.display, it.line, what, it.name))
                failed = True
    for name in known:
        if name not in undocumented:
            print("%s: error: %s %s: take it off the list" % (
                known_path, name, "is documented now" if name in declared
                else "is no longer declared"))
            failed = True
    rel = os.path.relpath(output)
    try:
        with open(output, encoding="utf-8") as f:
            current = f.read()
    except OSError:
        current = None
    if current is None:
        print("%s: error: missing; run %s" % (rel, REGENERATE))
        failed = True
    elif current != page:
        print("%s: error: out of date with the headers; run %s" % (rel, REGENERATE))
        diff = list(difflib.unified_diff(current.split("\n"), page.split("\n"),
                                         rel + " (as it is)", rel + " (as generated)",
                                         lineterm="", n=1))
        for ln in diff[:60]:
            print("    " + ln)
        if len(diff) > 60:
            print("    ... %d more lines of difference" % (len(diff) - 60))
        failed = True
    if not failed:
        tolerated = len(undocumented)
        print("gen_api_docs: %d public functions and types, %s; %s is up to date"
              % (len(declared), "all documented" if not tolerated else
                 "%d without a doc comment, all on the list" % tolerated, rel))
    return 1 if failed else 0


def main(argv):
    ap = argparse.ArgumentParser(
        description="Writes (or checks) docs/api.md from the doc comments of include/*.h.")
    ap.add_argument("--check", action="store_true",
                    help="fail on undocumented declarations or an out-of-date page; write nothing")
    ap.add_argument("--include-dir", default=os.path.join(ROOT, "include"), metavar="DIR")
    ap.add_argument("--output", default=os.path.join(ROOT, "docs", "api.md"), metavar="FILE")
    ap.add_argument("--known-undocumented", default=None, metavar="FILE")
    args = ap.parse_args(argv)
    try:
        headers = load_headers(args.include_dir)
    except (OSError, HeaderError) as e:
        print("gen_api_docs: %s" % e, file=sys.stderr)
        return 2
    page = render(headers)
    if args.check:
        return check(headers, page, args.output, args.known_undocumented)
    with open(args.output, "w", encoding="utf-8", newline="\n") as f:
        f.write(page)
    print("gen_api_docs: wrote %s" % os.path.relpath(args.output))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
