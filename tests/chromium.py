"""This pytest worker's Chromium (Debian's, /usr/bin/chromium) and the Playwright driver that
drives it, shared by every browser test the worker runs: the `chromium` fixture.

A driver and a browser started for each test cost more CPU than most tests' own pages did, so
one of each serves the whole session, and each test opens contexts of its own in it and closes
them all when it ends (tests/web/conftest.py's `browser`). They live on the session's event
loop, so the tests using them, and their async fixtures, run on that loop too. A browser that
crashed or was closed is launched again for the next test, and a driver that has gone is
started again, so one test's crash is not every later test's failure.

tests/conftest.py uses it, so that tests/web and the browser tests elsewhere (a module that
takes tests/web's fixtures) share one browser per worker.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import pytest_asyncio
from playwright.async_api import Browser, BrowserContext, Playwright, async_playwright
from playwright.async_api import Error as PlaywrightError

CHROMIUM = "/usr/bin/chromium"
# The features Playwright (1.65, chromiumSwitches.ts) disables itself. Chromium keeps only the
# last --disable-features it is given, so ours must repeat them: without them they would be
# enabled again (seen in the child processes' --disable-features).
_PLAYWRIGHT_DISABLED = (
    "AvoidUnnecessaryBeforeUnloadCheckSync,DestroyProfileOnBrowserClose,HttpsUpgrades,"
    "HttpsFirstBalancedModeAutoEnable,LensOverlay,MediaRouter,PaintHolding,"
    "ThirdPartyStoragePartitioning,AvoidCorsURLLoaderRestartOnRedirect,TcpPortRandomizationWin,"
    "OptimizationHints,NetworkTimeServiceQuerying,AimEnabled,PreconnectToSearch,"
    "msForceBrowserSignIn,msEdgeUpdateLaunchServicesPreferredVersion")
# Playwright passes --headless (Chromium 156's only headless mode: --headless=new and
# --headless=old start the same full browser), --no-sandbox, --no-first-run,
# --disable-background-networking, --disable-component-update, --disable-sync,
# --disable-extensions, --disable-dev-shm-usage, --disable-renderer-backgrounding and
# --disable-background-timer-throttling itself; these are the flags it does not pass.
FLAGS = [
    # kept from before; without --disable-gpu a context cost no less (0.75-0.90 s of CPU
    # against 0.65-0.82 s, the measurement below)
    "--disable-gpu",
    "--disable-quic",
    # Every context is a window of the full browser, and each window preloaded the address
    # bar's two WebUI popups (chrome://omnibox-popup.top-chrome/, its own renderer process)
    # that no headless test ever opens. Measured (2026-12-06, 2 cores, runs alternated): all
    # of tests/web with -n 2, each run in a cpuacct cgroup of its own (pytest's own rusage
    # misses the renderers, which are never reaped into it), 205-259 s of CPU per run before
    # (8 runs), 164-203 s with this alone (8 runs); per context opened, shown, screenshotted
    # and closed, 1.5-1.6 s of CPU before, 0.65-0.82 s after.
    f"--disable-features={_PLAYWRIGHT_DISABLED},WebUIOmniboxPopup,WebUIOmniboxAimPopup",
    # With site isolation on, each new page started two renderer processes (both already
    # there at its about:blank, both still there after its first navigation); with it off,
    # one. A context still has processes of its own (it is a profile of its own), and the app
    # has no frames of another site, so nothing the tests see changes. Measured:
    # one renderer process per context instead of two (65-66 instead of 133-134 per run);
    # per context 0.58-0.73 s of CPU instead of 0.64-0.80 s (7 alternated pairs, every one
    # lower); tests/web with -n 2 158-185 s of CPU per run (4 runs, with the line above).
    "--disable-site-isolation-trials",
]


class Chromium:
    """This worker's Playwright driver and Chromium, started on first use and again after
    either has gone."""

    def __init__(self) -> None:
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None
        self._broken = False

    async def browser(self) -> Browser:
        if self._broken:
            await self.close()
        if self._browser is not None and self._browser.is_connected():
            return self._browser
        self._browser = None
        if self._playwright is not None:
            try:
                self._browser = await self._launch(self._playwright)
            except PlaywrightError:  # the driver has gone too: start another
                await self._stop_driver()
        if self._browser is None:
            self._playwright = await async_playwright().start()
            self._browser = await self._launch(self._playwright)
        return self._browser

    async def close_contexts(self, contexts: list[BrowserContext]) -> None:
        """Close them all. One that cannot be closed means the browser or the driver went
        away under the test (a dead driver leaves the browser looking connected): the next
        test starts both afresh."""
        for context in contexts:
            try:
                await context.close()
            except PlaywrightError:
                self._broken = True

    @staticmethod
    async def _launch(playwright: Playwright) -> Browser:
        return await playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)

    async def _stop_driver(self) -> None:
        playwright, self._playwright = self._playwright, None
        if playwright is not None:
            with contextlib.suppress(PlaywrightError):
                await playwright.stop()

    async def close(self) -> None:
        browser, self._browser = self._browser, None
        self._broken = False
        if browser is not None:
            with contextlib.suppress(PlaywrightError):
                await browser.close()
        await self._stop_driver()


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def chromium() -> AsyncIterator[Chromium]:
    running = Chromium()
    try:
        yield running
    finally:
        await running.close()
