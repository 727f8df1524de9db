#!/usr/bin/python3
"""The guidance page and the try-it page (`GET /`) in a real browser: headless Chromium driven by
Selenium (Debian's chromium, chromium-driver and python3-selenium), against `serve` on a free
loopback port.

    Tests/Browser/test_pages.py BINARY [--screenshots DIR]

Prints one line per check and the closing line `browser: N passed, M failed`; exits 1 when a
check fails or Chromium cannot start (never a skip). CREATIVE_BROWSER_CHECKS=WORD runs only the
checks whose names hold WORD. With --screenshots, also saves the guidance page and the try-it
page (after uploads) at 375 and 1280 CSS pixels wide in DIR (Pages.save_screenshots).
"""
import io
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.parse
import zipfile
import zlib

try:
    from selenium import webdriver
    from selenium.common.exceptions import NoAlertPresentException, TimeoutException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait
    from view_checks import ViewChecks
except ImportError as missing:  # a failure, never a skip: scripts/install-deps.sh browser installs it
    print("browser: FAILED: %s (Debian's python3-selenium: scripts/install-deps.sh browser)" % missing)
    print("browser: 0 passed, 1 failed")
    sys.exit(1)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VALID_PNG = os.path.join(ROOT, "TestImages", "test-artwork-960x150.png")
HOSTILE_NAME = "<img src=x onerror=alert(1)>.png"
TOKEN = "browser-test-token-7f3a"
# Brand, headline, call to action and colours with markup, quotes, an ampersand and template syntax.
FILLED = {"brand": 'Bakery <b>"Kuku"</b> & Sons', "headline": "Fresh {{cta}} 'bread'",
          "cta": "Order <now>", "colors": "navy #0b3d91 & white"}
PLACEHOLDERS = {"brand": "[brand]", "headline": "[headline]", "cta": "[call to action]", "colors": "[colours]"}


def fail(message):
    raise AssertionError(message)


def png(width, height):
    """An opaque RGB PNG of a size, made here so no binary fixture is needed."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    row = b"\x00" + bytes([40, 90, 160]) * width
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(row * height)) + chunk(b"IEND", b""))


def bundle_zip():
    """A valid HTML5 bundle: an index.html of ad size 320x50 and the 960x150 test artwork as its static image."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("index.html", '<!doctype html><html><head><meta name="ad.size" content="width=320,height=50">'
                        '</head><body><a href="#">Test Ad</a></body></html>\n')
        bundle.write(VALID_PNG, "static.png")
    return buffer.getvalue()


class Service_:
    """`BINARY serve` on a free loopback port, its log in a file; stopped with SIGTERM."""

    def __init__(self, binary, work, name, *options):
        self.log_path = os.path.join(work, name + ".log")
        self.log = open(self.log_path, "wb")
        # The job deadline is 300 s, not the service's 10 s: the tests run a debug build, whose
        # campaign of three creatives takes over 10 s on two cores; what is checked is the page.
        self.process = subprocess.Popen([binary, "serve", "--host", "127.0.0.1", "--port", "0", "--admin-port", "0",
                                         "--job-timeout", "300", *options], stdout=subprocess.DEVNULL, stderr=self.log)
        self.port = None
        for _ in range(200):
            with open(self.log_path, "rb") as log:
                for line in log:
                    try:
                        event = json.loads(line)
                    except ValueError:
                        continue
                    if event.get("event") == "listening" and "port" in event:
                        self.port = event["port"]
            if self.port or self.process.poll() is not None:
                break
            time.sleep(0.05)
        if not self.port:
            self.stop()
            fail("serve did not start: " + open(self.log_path, encoding="utf-8", errors="replace").read())
        self.base = "http://127.0.0.1:%d" % self.port

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)
        self.log.close()


class Pages(ViewChecks):
    def __init__(self, binary, work, screenshots):
        self.binary, self.work, self.screenshots = binary, work, screenshots
        self.open = Service_(binary, work, "open")
        token_file = os.path.join(work, "token")
        with open(token_file, "w") as handle:
            handle.write(TOKEN + "\n")
        self.locked = Service_(binary, work, "locked", "--token-file", token_file)
        self.files = {}
        for name, data in [("valid.png", open(VALID_PNG, "rb").read()), ("wide-961x150.png", png(961, 150)),
                           (HOSTILE_NAME, open(VALID_PNG, "rb").read()), ("bundle.zip", bundle_zip())]:
            path = os.path.join(work, name)
            with open(path, "wb") as handle:
                handle.write(data)
            self.files[name] = path
        try:
            self.driver, self.browser = start_chromium(work)
        except BaseException:
            self.open.stop()
            self.locked.stop()
            raise

    def close(self):
        try:
            self.driver.quit()
        finally:
            self.browser.kill()
            self.browser.wait()
            self.open.stop()
            self.locked.stop()

    # helpers

    def tool(self, *arguments):
        return subprocess.run([self.binary, *arguments], check=True, capture_output=True, text=True).stdout

    def prompt_text(self, size, texts):
        """The `prompt` command's text for a size: what Copy must put on the clipboard."""
        arguments = ["prompt", "--size", size, "--json"]
        for name, value in texts.items():
            arguments += ["--" + name, value]
        return json.loads(self.tool(*arguments))["prompt"]

    def wait(self, condition, what, seconds=30):
        try:
            return WebDriverWait(self.driver, seconds).until(lambda driver: condition())
        except TimeoutException:
            fail("timed out waiting for " + what)

    def load(self, url):
        self.driver.get(url)
        self.wait(lambda: self.driver.execute_script("return document.readyState") == "complete", "the page to load")

    def grant_clipboard(self, base):
        self.driver.execute_cdp_cmd("Browser.grantPermissions", {
            "origin": base, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})

    def clipboard(self):
        return self.driver.execute_async_script(
            "var done = arguments[0]; navigator.clipboard.readText().then(done, function (e) { done('READ FAILED ' + e) });")

    def set_clipboard(self, text):
        error = self.driver.execute_async_script(
            "var done = arguments[1]; navigator.clipboard.writeText(arguments[0])"
            ".then(function () { done(null) }, function (e) { done(String(e)) });", text)
        if error:
            fail("cannot write the clipboard: " + error)

    def press(self, key):
        """A key pressed on whatever has the focus, as a person would (not sent to an element)."""
        ActionChains(self.driver).send_keys(key).perform()

    def focused(self, attribute):
        return self.driver.switch_to.active_element.get_attribute(attribute)

    def status(self, size):
        return self.driver.find_element(By.ID, "prompt-%s-status" % size).text

    def guidance(self, texts):
        query = urllib.parse.urlencode(dict(format="html", **texts))
        self.load(self.open.base + "/v1/guidance?" + query)
        self.grant_clipboard(self.open.base)

    def upload(self, name):
        self.driver.find_element(By.ID, "file").send_keys(self.files[name])

    def verdict(self, name, word):
        expected = name + ": " + word
        self.wait(lambda: self.driver.execute_script(
            "var v = document.getElementById('verdict'); return v && v.textContent") == expected, repr(expected))

    def no_alert(self):
        try:
            alert = self.driver.switch_to.alert
            text = alert.text
            alert.dismiss()
            fail("an alert fired: %r" % text)
        except NoAlertPresentException:
            pass

    def renders_ready(self):
        """Every device slot the upload is served in has its render, decoded, at the slot's pixel
        width; returns how many."""
        self.wait(lambda: self.driver.execute_script("return document.getElementById('status').textContent") == "Renders ready",
                  "Renders ready", 120)
        self.wait(lambda: self.driver.execute_script(
            "var i = document.querySelectorAll('#renders img.render'); return i.length > 0 &&"
            " [].every.call(i, function (img) { return img.complete && img.naturalWidth > 0 })"), "every render", 120)
        pairs = self.driver.execute_script(
            "return [].map.call(document.querySelectorAll('#renders figure.slot'), function (f) {"
            " return [Number(f.getAttribute('data-slot-pixels').split('x')[0]), f.querySelector('img.render').naturalWidth] })")
        for slot, width in pairs:
            if slot != width:
                fail("a render %d px wide in a slot of %d px" % (width, slot))
        return len(pairs)

    CONTRAST = """
    function rgba(text) { var m = text.match(/[\\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; }
    function luminance(c) { var v = c.slice(0, 3).map(function (x) { x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); });
      return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; }
    function background(e) { for (; e; e = e.parentElement) { var c = rgba(getComputedStyle(e).backgroundColor); if (c[3] === 1) return c; } return [255, 255, 255, 1]; }
    var low = [];
    document.querySelectorAll('body *').forEach(function (e) {
      var own = [].some.call(e.childNodes, function (n) { return n.nodeType === 3 && n.textContent.trim(); });
      if (!own || !e.getClientRects().length) return;
      var style = getComputedStyle(e), size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
      var a = luminance(rgba(style.color)), b = luminance(background(e));
      var ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05), need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
      if (ratio < need) low.push(e.tagName + ' ' + e.textContent.trim().slice(0, 30) + ': ' + ratio.toFixed(2));
    });
    return low;
    """

    def low_contrast(self):
        return self.driver.execute_script(self.CONTRAST)

    # checks

    def test_text_meets_wcag_aa_contrast(self):
        self.guidance({})
        self.driver.find_element(By.CSS_SELECTOR, "button[data-copy='prompt-960x150']").click()
        self.wait(lambda: self.status("960x150") == "Copied", "Copied")
        low = self.low_contrast()
        self.load(self.open.base + "/")
        self.upload("wide-961x150.png")
        self.verdict("wide-961x150.png", "rejected")
        low += self.low_contrast()
        self.upload("valid.png")
        self.verdict("valid.png", "valid")
        self.renders_ready()
        low += self.low_contrast()
        # The other products' pages: an interstitial's screens and warnings, the guidance pages.
        self.try_upload("interstitial", self.artwork("bars-1080x1920.png", 1080, 1920, bars=300))
        low += self.low_contrast()
        for product in ["interstitial", "companion"]:
            self.guidance_page(product)
            low += self.low_contrast()
        if low:
            fail("text under WCAG AA contrast: %s" % low[:10])

    def test_copy_puts_the_prompt_on_the_clipboard(self):
        for texts, name in [(FILLED, "filled in"), ({}, "placeholders")]:
            self.guidance(texts)
            sizes = self.driver.execute_script(
                "return [].map.call(document.querySelectorAll('button[data-copy]'), function (b) {"
                " return b.getAttribute('data-copy').replace('prompt-', '') })")
            if sizes != ["960x150", "1320x204", "2184x270", "320x50", "320x100", "300x250", "468x60", "728x90"]:
                fail("Copy buttons for %s" % sizes)
            for size in ["1320x204", "300x250"]:
                expected = self.prompt_text(size, texts or PLACEHOLDERS)
                self.set_clipboard("nothing copied yet")
                button = self.driver.find_element(By.CSS_SELECTOR, "button[data-copy='prompt-%s']" % size)
                if not button.is_displayed():
                    fail("the Copy button is hidden")
                button.click()
                self.wait(lambda: self.status(size) == "Copied", "Copied (%s, %s)" % (size, name))
                copied = self.clipboard()
                if copied != expected:
                    fail("%s %s: the clipboard holds %r, not the prompt %r" % (size, name, copied[:200], expected[:200]))
                shown = self.driver.find_element(By.ID, "prompt-" + size).get_attribute("textContent")
                if shown != expected:
                    fail("%s %s: the page shows another text than it copies" % (size, name))
            marks = self.driver.execute_script("return document.querySelectorAll('pre mark').length")
            if (marks > 0) != (not texts):
                fail("%s: %d placeholders marked" % (name, marks))
        self.no_alert()

    def test_copy_in_an_embedding_iframe(self):
        """The dashboard's way: its backend fetched the page, an iframe shows it (srcdoc, same origin)."""
        self.load(self.open.base + "/v1/slot?width=320")
        self.grant_clipboard(self.open.base)
        self.driver.execute_async_script(
            "var done = arguments[0]; fetch('/v1/guidance?format=html&brand=Acme').then(function (r) { return r.text() })"
            ".then(function (html) { var f = document.createElement('iframe'); f.id = 'guidance';"
            " f.setAttribute('allow', 'clipboard-write'); f.style.width = '900px'; f.style.height = '600px';"
            " f.onload = function () { done() }; f.srcdoc = html; document.body.appendChild(f) });")
        self.set_clipboard("nothing copied yet")
        self.driver.switch_to.frame(self.driver.find_element(By.ID, "guidance"))
        try:
            button = self.driver.find_element(By.CSS_SELECTOR, "button[data-copy='prompt-2184x270']")
            self.driver.execute_script("arguments[0].scrollIntoView()", button)
            button.click()
            self.wait(lambda: self.status("2184x270") == "Copied", "Copied in the iframe")
        finally:
            self.driver.switch_to.default_content()
        self.driver.execute_script("window.focus()")
        expected = self.prompt_text("2184x270", dict(PLACEHOLDERS, brand="Acme"))
        copied = self.clipboard()
        if copied != expected:
            fail("the iframe copied %r" % copied[:200])

    def test_without_javascript_the_prompts_stay_selectable(self):
        self.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
        try:
            self.load(self.open.base + "/v1/guidance?format=html")
            if self.driver.find_element(By.CSS_SELECTOR, "button[data-copy='prompt-960x150']").is_displayed():
                fail("a Copy button that cannot work is shown")
            pre = self.driver.find_element(By.ID, "prompt-960x150")
            if pre.value_of_css_property("user-select") == "none":
                fail("the prompt cannot be selected")
            if pre.text != self.prompt_text("960x150", PLACEHOLDERS):
                fail("the prompt shows another text")
        finally:
            self.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})

    def test_copy_from_the_keyboard_alone(self):
        self.guidance({})
        target = "prompt-960x150"
        for _ in range(60):
            if self.focused("data-copy") == target:
                break
            self.press(Keys.TAB)
        else:
            fail("Tab never reaches the first Copy button")
        label = self.focused("aria-label")
        if label != "Copy the 960x150 px prompt":
            fail("the button's label is %r" % label)
        outline = self.driver.execute_script("return getComputedStyle(document.activeElement).outlineStyle")
        if outline in ("", "none"):
            fail("the focused button shows no focus outline")
        self.set_clipboard("nothing copied yet")
        self.press(Keys.ENTER)
        self.wait(lambda: self.status("960x150") == "Copied", "Copied after Enter")
        if self.clipboard() != self.prompt_text("960x150", PLACEHOLDERS):
            fail("Enter copied something else")
        # Tab on: the prompt text itself (focusable, selectable), then the next Copy button; Space presses it.
        self.press(Keys.TAB)
        if self.focused("id") != target:
            fail("the prompt text does not take focus after its button")
        self.press(Keys.TAB)
        if self.focused("data-copy") != "prompt-1320x204":
            fail("Tab does not reach the next Copy button")
        self.set_clipboard("nothing copied yet")
        self.press(Keys.SPACE)
        self.wait(lambda: self.status("1320x204") == "Copied", "Copied after Space")
        if self.clipboard() != self.prompt_text("1320x204", PLACEHOLDERS):
            fail("Space copied something else")
        role = self.driver.find_element(By.ID, "prompt-1320x204-status").get_attribute("role")
        if role != "status":
            fail("the Copied status is not announced (role %r)" % role)

    def test_pages_fit_a_phone(self):
        for url in [self.open.base + "/v1/guidance?format=html", self.open.base + "/"]:
            self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                        {"width": 375, "height": 800, "deviceScaleFactor": 1, "mobile": True})
            try:
                self.load(url)
                width = self.driver.execute_script("return document.documentElement.scrollWidth")
                if width > 375:
                    fail("%s is %d px wide at 375" % (url, width))
            finally:
                self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    def test_sizes_round_as_the_command_line_does(self):
        # The page's own bytes() (taken from its script, run as it is): kilobytes of 1000 rounded
        # to the nearest, as `validate` prints them (TextFormat.kilobytes).
        self.load(self.open.base + "/")
        script = self.driver.execute_script("return Array.from(document.scripts).map(function (s) { return s.text })"
                                            ".join('\\n')")
        match = re.search(r"function bytes\(n\)\{.*?\}\n", script or "")
        if not match:
            fail("the page's bytes() was not found")
        for n, shown in [(999, "999 bytes"), (1985, "1,985 bytes (2 KB)"), (3145728, "3,145,728 bytes (3,146 KB)")]:
            got = self.driver.execute_script(match.group(0) + "; return bytes(%d)" % n)
            if got != shown:
                fail("bytes(%d) shows %r, not %r" % (n, got, shown))

    def test_valid_upload_shows_valid_and_renders(self):
        self.load(self.open.base + "/")
        self.upload("valid.png")
        self.verdict("valid.png", "valid")
        count = self.renders_ready()
        if count < 3:
            fail("only %d device slots" % count)
        self.wait(lambda: (self.driver.execute_script(
            "var a = document.getElementById('preview-link'); return a && a.href") or "").startswith("blob:"),
            "the preview sheet link")
        # The policy allows blob: images only (no fetch of it): the link's target must load as one.
        size = self.driver.execute_async_script(
            "var done = arguments[0], img = new Image(); img.onload = function () { done([img.naturalWidth, img.naturalHeight]) };"
            " img.onerror = function () { done(null) }; img.src = document.getElementById('preview-link').href;")
        if not size or size[0] < 300 or size[1] < 300:
            fail("the preview sheet link opens %s" % size)

    def test_a_bundle_can_be_picked_and_shows_its_static_image(self):
        self.load(self.open.base + "/")
        accept = self.driver.execute_script("return document.getElementById('file').accept")
        if ".zip" not in accept.split(","):
            fail("the file input does not take a .zip: %r" % accept)
        self.upload("bundle.zip")
        self.verdict("bundle.zip", "valid")
        # The static image, rendered by the service at the ad size @2x, not "cannot show the file".
        self.wait(lambda: self.driver.execute_script(
            "var i = document.querySelector('figure.artwork img'); return i && i.complete && i.naturalWidth") == 640,
            "the static image at 640 px")
        caption = self.driver.execute_script("return document.querySelector('figure.artwork figcaption').textContent")
        if not caption.startswith("The static image of the bundle"):
            fail("the picture is captioned %r" % caption)
        if self.renders_ready() < 3:
            fail("the bundle is not rendered into the device slots")

    def test_a_dropped_file_is_checked(self):
        self.load(self.open.base + "/")
        # A drop as the browser delivers it: a DataTransfer holding the file, on the drop zone.
        self.driver.execute_async_script(
            "var done = arguments[0]; fetch('/v1/test-artwork/1320x204.png').then(function (r) { return r.blob() })"
            ".then(function (blob) { var data = new DataTransfer();"
            " data.items.add(new File([blob], 'dropped 1320x204.png', {type: 'image/png'}));"
            " var zone = document.getElementById('drop');"
            " zone.dispatchEvent(new DragEvent('dragover', {dataTransfer: data, bubbles: true, cancelable: true}));"
            " zone.dispatchEvent(new DragEvent('drop', {dataTransfer: data, bubbles: true, cancelable: true})); done() });")
        self.verdict("dropped 1320x204.png", "valid")
        self.renders_ready()

    def test_wrong_size_shows_dimensions_not_allowed(self):
        self.load(self.open.base + "/")
        self.upload("wide-961x150.png")
        self.verdict("wide-961x150.png", "rejected")
        # `validate` exits 1 for a rejected file: its report is the expected text.
        report = json.loads(subprocess.run([self.binary, "validate", "--json", self.files["wide-961x150.png"]],
                                           capture_output=True, text=True).stdout)
        expected = [(e["code"], e["message"]) for e in report["errors"]]
        shown = self.driver.execute_script(
            "return [].map.call(document.querySelectorAll('li.error'), function (li) {"
            " return [li.querySelector('code').textContent, li.querySelector('.message').textContent] })")
        if [tuple(pair) for pair in shown] != expected or expected[0][0] != "dimensions_not_allowed":
            fail("errors shown %s, the report says %s" % (shown, expected))
        if self.driver.find_elements(By.CSS_SELECTOR, "#renders img"):
            fail("a rejected file got renders")

    def test_hostile_file_name_is_text(self):
        self.driver.get("about:blank")
        self.load(self.open.base + "/")
        self.upload(HOSTILE_NAME)
        self.verdict(HOSTILE_NAME, "valid")
        self.renders_ready()
        self.no_alert()
        stray = self.driver.execute_script(
            "return [].filter.call(document.querySelectorAll('img'), function (i) {"
            " return i.getAttribute('src') === 'x' || i.hasAttribute('onerror') }).length")
        if stray:
            fail("the file name became %d element(s)" % stray)
        shown = self.driver.find_element(By.CSS_SELECTOR, "#result dd").text
        if shown != HOSTILE_NAME:
            fail("the file name shows as %r" % shown)
        policy = self.driver.execute_script(
            "return fetch('/').then(function (r) { return r.headers.get('content-security-policy') })")
        if "script-src 'sha256-" not in policy or "unsafe-inline" in policy:
            fail("Content-Security-Policy: %r" % policy)

    def test_token_is_asked_once_and_kept_for_the_session(self):
        self.load(self.locked.base + "/")
        self.upload("valid.png")
        self.wait(lambda: self.driver.find_element(By.ID, "token-form").is_displayed(), "the token form")
        if self.focused("id") != "token":
            fail("the token field does not take focus")
        self.press(TOKEN + Keys.ENTER)
        self.verdict("valid.png", "valid")
        self.renders_ready()
        if self.driver.execute_script("return sessionStorage.getItem('creative-tool-token')") != TOKEN:
            fail("the token is not in sessionStorage")
        self.upload("wide-961x150.png")
        self.verdict("wide-961x150.png", "rejected")
        if self.driver.find_element(By.ID, "token-form").is_displayed():
            fail("the token was asked twice")

    def test_try_it_page_from_the_keyboard(self):
        self.load(self.open.base + "/")
        self.press(Keys.TAB)
        if self.focused("value") != "banner":
            fail("the first Tab does not reach the product choice")
        # Arrow keys move the choice, as in every radio group; Tab goes on to the file picker.
        self.press(Keys.ARROW_RIGHT)
        if self.focused("value") != "interstitial" or not self.driver.find_element(By.CSS_SELECTOR, "input[value=interstitial]").is_selected():
            fail("the arrow key does not choose the next product")
        self.press(Keys.ARROW_LEFT)
        self.press(Keys.TAB)
        if self.focused("id") != "file":
            fail("Tab does not go on to the file picker")
        # A picked file arrives through the same input a keyboard user opens with Enter or Space.
        self.driver.find_element(By.ID, "file").send_keys(self.files["valid.png"])
        self.verdict("valid.png", "valid")
        self.renders_ready()
        self.wait(lambda: self.driver.find_elements(By.ID, "preview-link"), "the preview link")
        # One stop per render's 1:1 button (a creative alone is served in all 28 anchored slots), then the link.
        stops = len(self.driver.find_elements(By.CSS_SELECTOR, "#renders button.zoom"))
        for _ in range(stops + 10):
            self.press(Keys.TAB)
            if self.focused("id") == "preview-link":
                break
        else:
            fail("Tab does not reach the preview sheet link")

    # screenshots

    def save_screenshots(self):
        """The pages as the docs show them, at 375 and 1280 CSS pixels wide: the try-it page after
        uploads (whole pages), the guidance page's first screen and its prompts after Copy (one
        screen each), an interstitial's templates section."""
        os.makedirs(self.screenshots, exist_ok=True)
        saved = []

        def shoot(name, width, prepare, whole):
            self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                        {"width": width, "height": 820, "deviceScaleFactor": 1, "mobile": width < 500})
            prepare()
            if whole:
                height = self.driver.execute_script("return document.documentElement.scrollHeight")
                self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 500})
            path = os.path.join(self.screenshots, "%s-%d.png" % (name, width))
            if not self.driver.save_screenshot(path):
                fail("no screenshot " + path)
            saved.append(path)

        def copied():
            self.guidance({})
            self.driver.execute_script("document.getElementById('prompts').scrollIntoView()")
            self.driver.find_element(By.CSS_SELECTOR, "button[data-copy='prompt-960x150']").click()
            self.wait(lambda: self.status("960x150") == "Copied", "Copied")

        def templates():
            self.guidance_page("interstitial")
            self.driver.execute_script("document.getElementById('templates').scrollIntoView()")

        banner = self.artwork("wide-2184x270.png", 2184, 270)
        inter = self.artwork("inter-1080x1920.png", 1080, 1920)
        for width in (375, 1280):
            shoot("try-it", width, lambda: self.try_upload("banner", banner), True)
            shoot("guidance-top", width, lambda: self.guidance_page("banner"), False)
            shoot("guidance-prompts", width, copied, False)
        shoot("try-it-rejected", 375, lambda: self.try_upload("banner", self.files["wide-961x150.png"], "rejected"), True)
        shoot("try-it-interstitial", 1280, lambda: self.try_upload("interstitial", inter), True)
        shoot("guidance-templates", 1280, templates, False)
        self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        return saved


class LoopbackService(Service):
    """chromedriver reached at 127.0.0.1, not `localhost`: a machine without /etc/hosts (a
    minimal debootstrap root) cannot resolve that name, and Selenium 4.8 asks for it."""

    @property
    def service_url(self):
        return "http://127.0.0.1:%d" % self.port

    def is_connectable(self):
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                return True
        except OSError:
            return False


def start_chromium(work):
    """Chromium started here, then chromedriver attached to it, so that both talk over 127.0.0.1:
    a browser that chromedriver launches itself is reached at `localhost`, which a machine
    without /etc/hosts (a minimal debootstrap root) cannot resolve. Returns (driver, browser)."""
    profile = os.path.join(work, "profile")
    port_file = os.path.join(profile, "DevToolsActivePort")
    log = open(os.path.join(work, "chromium.log"), "wb")
    browser = subprocess.Popen([shutil.which("chromium") or "/usr/bin/chromium", "--headless=new", "--no-sandbox",
                                "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--window-size=1280,900",
                                "--user-data-dir=" + profile, "--remote-debugging-address=127.0.0.1",
                                "--remote-debugging-port=0", "about:blank"],
                               stdin=subprocess.DEVNULL, stdout=log, stderr=log)
    deadline = time.time() + 30
    port = None
    while port is None:
        if browser.poll() is not None or time.time() > deadline:
            browser.kill()
            fail("chromium did not start (exit %s); see its log" % browser.poll())
        try:
            with open(port_file) as handle:
                port = int(handle.readline())
        except (OSError, ValueError):
            time.sleep(0.1)
    options = webdriver.ChromeOptions()
    options.debugger_address = "127.0.0.1:%d" % port
    service = LoopbackService(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver",
                              log_path=os.path.join(work, "chromedriver.log"))
    try:
        driver = webdriver.Chrome(service=service, options=options)
    except Exception:
        browser.kill()
        raise
    driver.set_script_timeout(30)
    # A browser chromedriver attaches to has no focused window, and the clipboard needs a
    # focused document: the page is told it has focus, as a person's window would.
    driver.execute_cdp_cmd("Emulation.setFocusEmulationEnabled", {"enabled": True})
    return driver, browser


def main():
    if len(sys.argv) not in (2, 4) or (len(sys.argv) == 4 and sys.argv[2] != "--screenshots"):
        print(__doc__.strip(), file=sys.stderr)
        return 64
    binary = os.path.abspath(sys.argv[1])
    screenshots = os.path.abspath(sys.argv[3]) if len(sys.argv) == 4 else None
    work = tempfile.mkdtemp(prefix="creative-browser-")
    passed = failed = 0
    try:
        try:
            pages = Pages(binary, work, screenshots)
        except Exception as error:  # Chromium or the service could not start: a failure, never a skip.
            print("browser: FAILED to start: %s" % (str(error).strip().splitlines() or [repr(error)])[0])
            traceback.print_exc()
            print("browser: 0 passed, 1 failed")
            return 1
        try:
            only = os.environ.get("CREATIVE_BROWSER_CHECKS", "")
            checks = [name for name in dir(Pages) if name.startswith("test_") and only in name]
            for name in checks:
                try:
                    getattr(pages, name)()
                    passed += 1
                    print("browser: %s passed" % name)
                except Exception as error:
                    failed += 1
                    print("browser: %s FAILED: %s" % (name, error))
                    if not isinstance(error, AssertionError):
                        traceback.print_exc()
            if screenshots:
                for path in pages.save_screenshots():
                    print(path)
        finally:
            pages.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("browser: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
