"""The documentation site: ``mkdocs build --strict`` succeeds (a broken link, a missing anchor
or a docstring that cannot be rendered fails it), the generated API reference documents every
public name of ``huarong``, and the README's links into the site point at pages that exist."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import huarong

ROOT = Path(__file__).resolve().parents[1]

_DOCS_PACKAGES = ("mkdocs", "material", "mkdocs_click", "mkdocstrings", "mkdocstrings_handlers")
needs_mkdocs = pytest.mark.skipif(
    any(importlib.util.find_spec(name) is None for name in _DOCS_PACKAGES),
    reason="the docs extra is not installed: pip install '.[docs]'")


@pytest.fixture(scope="module")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str],
                                                                  Path]:
    site = tmp_path_factory.mktemp("site")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
         str(ROOT / "mkdocs.yml"), "--site-dir", str(site)],
        cwd=ROOT, capture_output=True, text=True, check=False,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    return result, site


@needs_mkdocs
def test_site_builds_in_strict_mode(
        built_site: tuple[subprocess.CompletedProcess[str], Path]) -> None:
    result, site = built_site
    problems = [line for line in result.stderr.splitlines()
                if line.startswith(("WARNING", "ERROR"))]
    assert result.returncode == 0, "\n".join(problems) or result.stderr[-3000:]
    assert (site / "index.html").is_file()


def _anchor(name: str) -> str:
    """The anchor mkdocstrings gives a public name: its path where it is defined."""
    obj = getattr(huarong, name)
    module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    return f"{module}.{qualname}" if module and qualname else f"huarong.{name}"


@needs_mkdocs
def test_every_public_name_is_documented(
        built_site: tuple[subprocess.CompletedProcess[str], Path]) -> None:
    result, site = built_site
    assert result.returncode == 0, "the site did not build"
    anchors = set()
    for page in (site / "reference").rglob("*.html"):
        anchors.update(re.findall(r'\sid="([^"]+)"', page.read_text(encoding="utf-8")))
    missing = [name for name in huarong.__all__ if _anchor(name) not in anchors]
    assert not missing, f"not in the API reference: {missing}"


def test_readme_links_into_the_site_exist() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\((docs/[^)#\s]+)", readme)
    assert targets, "the README links to no page of the site"
    missing = [target for target in targets if not (ROOT / target).is_file()
               and not target.startswith("docs/images/")]
    assert not missing, f"README links to missing files: {missing}"


@needs_mkdocs
def test_no_page_of_the_site_asks_anything_of_another_machine(
        built_site: tuple[subprocess.CompletedProcess[str], Path]) -> None:
    """Every page of the built site, opened in chromium from disk: no request leaves the
    machine (the theme's default asks a web-font service for Roboto on every page; offline or
    behind a firewall the page waits for it)."""
    from tests.test_browser import launch_chromium

    result, site = built_site
    assert result.returncode == 0, "the site did not build"
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 10
    outside: set[str] = set()

    def screened(route: Any) -> None:
        if route.request.url.startswith(("file:", "data:", "blob:", "about:")):
            route.continue_()
        else:
            outside.add(route.request.url)
            route.abort()

    with launch_chromium() as browser:
        page = browser.new_page()
        page.route("**/*", screened)
        for path in pages:
            page.goto(path.as_uri(), wait_until="load")
    assert not outside, sorted(outside)[:5]
