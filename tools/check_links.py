#!/usr/bin/env python3
"""Checks the local links of the built book and of Markdown files.

    python3 tools/check_links.py --book docs/book README.md
    python3 tools/check_links.py --self-test

Every relative link in the book's HTML (docs/book/, built by
`mdbook build docs`) and in the Markdown files given must name a file that
exists inside the repository (--root, default: the current directory), and
its `#fragment`, when it names an HTML page or a Markdown file, must be an
anchor of that page (an `id`/`name` attribute) or a heading of that file
(its GitHub/mdBook slug). Links with a scheme (https:, mailto:) are not
checked: CI has no internet. Exit 1 with one line per broken link.

Links to the repository's files work in the built book because docs/book/
sits at the same depth as docs/src/: `../../src/lib.rs` from
docs/src/guide/x.md and from docs/book/guide/x.html both reach src/lib.rs.
Why not a crate (lychee, mdbook-linkcheck): lychee needs a network-aware
build of its own, and mdbook-linkcheck lags mdBook's releases; this is
stdlib Python over what mdBook wrote.
"""

import argparse
import html.parser
import os
import re
import sys
import tempfile
import urllib.parse

SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:|^//")


class Page(html.parser.HTMLParser):
    """The anchors a page defines and the links it makes."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids = set()
        self.links = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for key in ("id", "name"):
            if attrs.get(key):
                self.ids.add(attrs[key])
        for key in ("href", "src"):
            if tag in ("a", "link", "img", "script", "iframe") and attrs.get(key):
                self.links.append(attrs[key])


def slug(heading):
    """A heading's anchor as GitHub and mdBook make it."""
    text = re.sub(r"<[^>]*>", "", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def outside_fences(text):
    """The Markdown's lines, those of fenced code blocks emptied (a `# comment` there is no heading)."""
    out, fence = [], None
    for line in text.split("\n"):
        m = re.match(r"^\s*(```+|~~~+)", line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            out.append("")
        elif m:
            fence = m.group(1)
            out.append("")
        else:
            out.append(line)
    return "\n".join(out)


def strip_code(text):
    """The Markdown without fenced blocks and code spans, whose brackets are not links."""
    return re.sub(r"(`+)(?:(?!\1).)+?\1", "", outside_fences(text))


def md_anchors(path):
    """The heading slugs of a Markdown file, numbered on repeats as GitHub does."""
    seen, anchors = {}, set()
    with open(path, encoding="utf-8") as f:
        text = outside_fences(f.read())
    for m in re.finditer(r"^#{1,6}\s+(.*?)\s*#*\s*$", text, re.M):
        base = slug(m.group(1))
        n = seen.get(base, 0)
        seen[base] = n + 1
        anchors.add(base if n == 0 else f"{base}-{n}")
    return anchors


def md_links(path):
    """The link targets of a Markdown file: inline links, images, reference definitions, <a href>."""
    with open(path, encoding="utf-8") as f:
        text = strip_code(f.read())
    links = re.findall(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", text)
    links += re.findall(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", text, re.M)
    links += re.findall(r"<a\s[^>]*href=\"([^\"]+)\"", text)
    return links


class Checker:
    """Resolves links against the file tree and collects what is broken."""

    def __init__(self, root):
        self.root = os.path.realpath(root)
        self.pages = {}
        self.problems = []
        self.checked = 0

    def page(self, path):
        if path not in self.pages:
            p = Page()
            with open(path, encoding="utf-8") as f:
                p.feed(f.read())
            self.pages[path] = p
        return self.pages[path]

    def check(self, source, link):
        if SCHEME.match(link):
            return
        self.checked += 1
        parts = urllib.parse.urlsplit(link)
        target = urllib.parse.unquote(parts.path)
        fragment = urllib.parse.unquote(parts.fragment)
        where = os.path.relpath(source, self.root)
        if target:
            path = os.path.realpath(os.path.join(os.path.dirname(source), target))
        else:
            path = os.path.realpath(source)
        if os.path.commonpath([path, self.root]) != self.root:
            self.problems.append(f"{where}: link leaves the repository: {link}")
            return
        if os.path.isdir(path) and os.path.exists(os.path.join(path, "index.html")):
            path = os.path.join(path, "index.html")
        if not os.path.exists(path):
            self.problems.append(f"{where}: broken link: {link}")
            return
        if not fragment:
            return
        if path.endswith(".html"):
            anchors = self.page(path).ids
        elif path.endswith(".md"):
            anchors = md_anchors(path)
        else:
            return
        if fragment not in anchors:
            self.problems.append(f"{where}: broken anchor: {link}")

    def book(self, directory):
        for dirpath, _, files in os.walk(directory):
            for name in sorted(files):
                # mdBook's 404 page is served from any depth under a <base
                # href> of the site root, so its relative links do not apply
                # to where the file lies.
                if not name.endswith(".html") or name == "404.html":
                    continue
                path = os.path.join(dirpath, name)
                for link in self.page(path).links:
                    self.check(path, link)

    def markdown(self, path):
        for link in md_links(path):
            self.check(path, link)


def run(root, book, files):
    """The broken links, and how many local links were checked."""
    checker = Checker(root)
    if book:
        if not os.path.isdir(book):
            return [f"{book}: no built book (run `mdbook build docs` first)"], 0
        checker.book(book)
    for f in files:
        checker.markdown(f)
    return checker.problems, checker.checked


def self_test():
    """The checker must report each kind of broken link, and nothing that is fine."""
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "repo")
        os.makedirs(os.path.join(root, "docs", "book", "guide"))
        os.makedirs(os.path.join(root, "docs", "src"))
        os.makedirs(os.path.join(root, "src"))
        open(os.path.join(tmp, "outside.txt"), "w").close()
        open(os.path.join(root, "src", "lib.rs"), "w").close()
        with open(os.path.join(root, "docs", "book", "guide", "good.html"), "w") as f:
            f.write('<h2 id="there">There</h2><a href="#there">self</a>')
        with open(os.path.join(root, "docs", "book", "a.html"), "w") as f:
            f.write(
                '<a href="guide/good.html">ok</a>'
                '<a href="guide/good.html#there">ok anchor</a>'
                '<a href="../../src/lib.rs">ok repo file</a>'
                '<a href="https://example.org/x">external</a>'
                '<a href="guide/missing.html">broken</a>'
                '<a href="guide/good.html#nowhere">bad anchor</a>'
                '<a href="#not-here">bad self anchor</a>'
                '<a href="../../../outside.txt">escapes</a>'
            )
        with open(os.path.join(root, "docs", "book", "404.html"), "w") as f:
            f.write('<base href="/"><a href="nowhere.html">served from the root</a>')
        with open(os.path.join(root, "docs", "src", "ch.md"), "w") as f:
            f.write("# Chapter\n\n## Tracing: `--trace`\n\n```sh\n# not a heading\n```\n")
        with open(os.path.join(root, "README.md"), "w") as f:
            f.write(
                "[ok](docs/src/ch.md#tracing---trace) [ok](src/lib.rs)\n"
                "[broken](docs/src/nope.md) [anchor](docs/src/ch.md#not-a-heading)\n"
                "[comment](docs/src/ch.md#not-a-heading-1) `[code](ignored.md)`\n"
                "```\n[fenced](ignored.md)\n```\n[ref]: missing/ref.md\n"
            )
        got, _ = run(root, os.path.join(root, "docs", "book"), [os.path.join(root, "README.md")])
        got.sort()
    want = sorted(
        [
            "docs/book/a.html: broken link: guide/missing.html",
            "docs/book/a.html: broken anchor: guide/good.html#nowhere",
            "docs/book/a.html: broken anchor: #not-here",
            "docs/book/a.html: link leaves the repository: ../../../outside.txt",
            "README.md: broken link: docs/src/nope.md",
            "README.md: broken anchor: docs/src/ch.md#not-a-heading",
            "README.md: broken anchor: docs/src/ch.md#not-a-heading-1",
            "README.md: broken link: missing/ref.md",
        ]
    )
    if got != want:
        print("check_links self-test FAILED")
        print("expected:\n  " + "\n  ".join(want))
        print("got:\n  " + "\n  ".join(got))
        return 1
    print(f"check_links self-test: {len(want)} broken links found, none else")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--book", help="the built book's directory (docs/book)")
    ap.add_argument("--root", default=".", help="the repository: no link may leave it")
    ap.add_argument("--self-test", action="store_true", help="check that broken links are caught")
    ap.add_argument("files", nargs="*", help="Markdown files whose links to check")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    problems, checked = run(args.root, args.book, args.files)
    for p in problems:
        print(p)
    if problems:
        print(f"check_links: {len(problems)} broken link(s)")
        return 1
    print(f"check_links: {checked} local links, none broken")
    return 0


if __name__ == "__main__":
    sys.exit(main())
