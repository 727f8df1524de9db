"""The try-it page of every product as a designer sees it, mixed into test_pages.Pages through
view_checks.ViewChecks: the product switch, slots grouped with landscape ones, the letterbox
hatched with its fill share, encoding and bytes, the size served instead, the 1:1 view, warnings
drawn, a rejection's picture and near miss, an interstitial's safe area and close zone, and no
sideways scrolling at 375 or 1280 CSS pixels for any product."""
import json
import os
import re
import struct
import urllib.error
import urllib.request
import zlib

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys


PRODUCTS = ["banner", "interstitial", "companion"]
WIDTHS = [375, 1280]


def fail(message):
    raise AssertionError(message)


def answer(request):
    """The service's JSON answer to a request; an error status fails with what the service said."""
    try:
        with urllib.request.urlopen(request) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as error:
        fail("%s %s: %d %s" % (request.get_method(), request.full_url, error.code,
                               error.read()[:500].decode("utf-8", "replace")))


class TryItChecks:
    # The try-it page for each product.

    def artwork(self, name, width, height, bars=0):
        """A PNG with detail (a gradient under a checker pattern), `bars` white rows at the top and
        bottom; written once into the work folder. Returns its path."""
        path = os.path.join(self.work, name)
        if not os.path.exists(path):
            def chunk(kind, data):
                return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
            rows = []
            for y in range(height):
                if y < bars or y >= height - bars:
                    rows.append(b"\x00" + b"\xff" * (3 * width))
                    continue
                rows.append(b"\x00" + b"".join(bytes((40 + x * 150 // width, 60 + y * 120 // height,
                                                      160 if (x // 24 + y // 24) % 2 else 90)) for x in range(width)))
            with open(path, "wb") as handle:
                handle.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                             + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))
        return path

    def try_upload(self, product, path, word="valid"):
        """The try-it page, `product` chosen, `path` uploaded; waits for the verdict (and, when
        valid, every render)."""
        self.load(self.open.base + "/")
        self.driver.find_element(By.CSS_SELECTOR, "input[name=product][value=%s]" % product).click()
        self.driver.find_element(By.ID, "file").send_keys(path)
        self.verdict(os.path.basename(path), word)
        if word == "valid":
            self.renders_ready()

    def manifest(self, product, path):
        """What the service's process job says about a file: the truth the page must show."""
        request = urllib.request.Request(self.open.base + "/v1/process?inline=false&product=" + product,
                                         data=open(path, "rb").read(), method="POST")
        return answer(request)["manifest"]

    def shown_slots(self):
        return self.driver.execute_script(
            "return [].map.call(document.querySelectorAll('#renders figure.slot'), function (f) {"
            " var pic = f.querySelector('.render-box').getBoundingClientRect(), hatch = f.querySelectorAll('.render-box .hatch');"
            " return {device: f.getAttribute('data-device'), orientation: f.getAttribute('data-orientation'),"
            " group: f.closest('section.group').getAttribute('data-group'), caption: f.querySelector('figcaption').textContent,"
            " frame: !!f.querySelector('.frame, .screen'), hatched: [].reduce.call(hatch, function (sum, h) {"
            " var r = h.getBoundingClientRect(); return sum + r.width * r.height }, 0) / (pic.width * pic.height)} })")

    def test_try_it_product_switch_shows_that_products_sizes_and_slots(self):
        inter = self.artwork("inter-1080x1920.png", 1080, 1920)
        self.try_upload("interstitial", inter)
        sizes = self.driver.find_element(By.ID, "sizes").text
        if "1080x1920" not in sizes or "960x150" in sizes:
            fail("interstitial chosen, sizes say %r" % sizes)
        shown = self.shown_slots()
        expected = self.manifest("interstitial", inter)["renders"]
        if sorted((s["device"], s["orientation"]) for s in shown) != sorted((r["device"], r["orientation"]) for r in expected):
            fail("interstitial slots shown %s, process serves %s" % (len(shown), len(expected)))
        # Switching the product checks the same file again, against the banner sizes.
        self.driver.find_element(By.CSS_SELECTOR, "input[name=product][value=banner]").click()
        self.verdict("inter-1080x1920.png", "rejected")

    def test_try_it_groups_landscape_slots_with_fill_encoding_and_bytes(self):
        path = self.artwork("wide-2184x270.png", 2184, 270)
        self.try_upload("banner", path)
        manifest = self.manifest("banner", path)
        shown = {(s["device"], s["orientation"]): s for s in self.shown_slots()}
        landscape = [s for s in shown.values() if s["group"] == "phone-landscape"]
        if not landscape:
            fail("no phone landscape slot shown for 2184x270 (groups: %s)" % sorted({s["group"] for s in shown.values()}))
        if len(shown) != len(manifest["renders"]):
            fail("%d slots shown, %d served" % (len(shown), len(manifest["renders"])))
        for render in manifest["renders"]:
            slot = shown[(render["device"], render["orientation"])]
            fill = re.search(r"fills (\d+\.\d)% of the", slot["caption"])
            served = "served as %s, %s bytes" % (render["encoding"], "{:,}".format(render["file_bytes"]))
            if not fill or abs(float(fill.group(1)) - render["fill_share"] * 100) > 0.051 or served not in slot["caption"] \
                    or not slot["frame"]:
                fail("%s: caption %r, fill %s, %r (frame %s)" % (render["device"], slot["caption"], render["fill_share"], served,
                                                                 slot["frame"]))
            # The hatched share of the picture is its letterbox: 1 - fill, within a pixel's rounding.
            if abs(slot["hatched"] - (1 - render["fill_share"])) > 0.02:
                fail("%s: %.3f hatched, letterbox %.3f" % (render["device"], slot["hatched"], 1 - render["fill_share"]))
        if not any(s["hatched"] > 0.05 for s in shown.values()):
            fail("no slot shows a letterbox")
        summary = self.driver.find_element(By.ID, "summary").text
        if not summary.startswith("Served in %d of " % len(manifest["renders"])) or "worst fill" not in summary:
            fail("summary %r" % summary)

    def campaign(self, product, paths):
        """What the service's campaign route says about files together: the truth the page must show."""
        boundary = "try-it-check-boundary"
        body = b""
        for index, path in enumerate(paths):
            body += ("--%s\r\nContent-Disposition: form-data; name=\"c%d\"; filename=\"%s\"\r\n\r\n"
                     % (boundary, index, os.path.basename(path))).encode() + open(path, "rb").read() + b"\r\n"
        request = urllib.request.Request(self.open.base + "/v1/campaign?product=" + product, data=body + b"--%s--\r\n" % boundary.encode(),
                                         method="POST", headers={"Content-Type": "multipart/form-data; boundary=" + boundary})
        return answer(request)

    def test_try_it_serves_a_file_alone_everywhere_and_shows_who_serves_each_slot_of_a_campaign(self):
        # Alone, an upload is the whole campaign: served in every slot, no other size named.
        self.try_upload("banner", self.files["valid.png"])
        others = self.driver.execute_script(
            "return [].map.call(document.querySelectorAll('li.other'), function (li) { return li.textContent })")
        summary = self.driver.find_element(By.ID, "summary").text
        if others or not summary.startswith("Served in 28 of 28 "):
            fail("alone: summary %r, notes %s" % (summary, others[:3]))
        # Several files: one campaign, each slot with the file that serves it, as the service says.
        paths = [self.artwork("c-%dx%d.png" % size, *size) for size in [(960, 150), (1320, 204), (2184, 270)]]
        expected = self.campaign("banner", paths)
        for width in WIDTHS:
            def check():
                self.load(self.open.base + "/")
                self.driver.find_element(By.ID, "file").send_keys("\n".join(paths))
                self.wait(lambda: self.driver.find_element(By.ID, "status").text == "Campaign ready", "the campaign", 120)
                rows = self.driver.execute_script(
                    "return [].map.call(document.querySelectorAll('#campaign tr[data-device]'), function (r) {"
                    " return [r.getAttribute('data-device'), r.getAttribute('data-orientation'), r.getAttribute('data-served'),"
                    " r.cells[3].textContent] })")
                want = sorted((s["device"], s["orientation"], "%dx%d" % (s["artwork_pixels"]["width"], s["artwork_pixels"]["height"]))
                              for s in expected["slots"])
                if len(rows) != 28 or sorted(tuple(r[:3]) for r in rows) != want:
                    fail("campaign rows %s, the service serves %s" % (rows[:3], want[:3]))
                if not all(r[3].startswith("c-" + r[2] + ".png ") for r in rows):
                    fail("the served column does not name the file: %s" % [r[3] for r in rows[:3]])
                listed = self.driver.execute_script(
                    "return [].map.call(document.querySelectorAll('#campaign-creatives li.valid'), function (l) { return l.textContent })")
                if len(listed) != 3 or sum(int(re.search(r"served in (\d+) slot", t).group(1)) for t in listed) != 28:
                    fail("creatives listed %s" % listed)
                past = self.overflow()
                if past > 0:
                    fail("the campaign view scrolls sideways by %d px at %d" % (past, width))
            self.at_width(width, check)

    def test_try_it_opens_a_render_at_one_to_one_device_pixels(self):
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": 1280, "height": 900, "deviceScaleFactor": 2, "mobile": False})
        try:
            self.try_upload("banner", self.files["valid.png"])
            button = self.driver.find_element(By.CSS_SELECTOR, "#renders button.zoom")
            button.send_keys(Keys.ENTER)
            self.wait(lambda: self.driver.execute_script("return document.getElementById('zoom').open"), "the 1:1 view")
            self.wait(lambda: self.driver.execute_script(
                "var i = document.getElementById('zoom-img'); return i.complete && i.naturalWidth > 0 && i.style.width !== ''"),
                "the 1:1 image")
            css, natural, ratio = self.driver.execute_script(
                "var i = document.getElementById('zoom-img'); return [i.getBoundingClientRect().width, i.naturalWidth, devicePixelRatio]")
            if abs(css * ratio - natural) > 0.5:
                fail("1:1 view: %s CSS px x %s for a %d px render" % (css, ratio, natural))
            self.press(Keys.ESCAPE)
            self.wait(lambda: not self.driver.execute_script("return document.getElementById('zoom').open"), "Escape to close")
        finally:
            self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    def test_try_it_draws_warnings_on_the_picture(self):
        path = self.artwork("bars-960x150.png", 960, 150, bars=20)
        self.try_upload("banner", path)
        marks = self.driver.execute_script(
            "var pic = document.querySelector('.artwork .pic').getBoundingClientRect();"
            " return [].map.call(document.querySelectorAll('.artwork .mark'), function (m) { var r = m.getBoundingClientRect();"
            " return [m.getAttribute('data-code'), Math.round((r.top - pic.top) / pic.height * 150), Math.round(r.height / pic.height * 150)] })")
        bars = [m[1:] for m in marks if m[0] == "baked_in_bars"]
        if bars != [[0, 20], [130, 20]] or not any(m[0] == "edge_without_border" for m in marks):
            fail("marks drawn %s" % marks)
        listed = self.driver.execute_script(
            "return [].map.call(document.querySelectorAll('.side li.warning code'), function (c) { return c.textContent })")
        if "baked_in_bars" not in listed or "edge_without_border" not in listed:
            fail("warnings beside the picture: %s" % listed)

    def test_try_it_shows_a_rejection_with_its_picture_and_the_near_miss(self):
        self.try_upload("banner", self.files["wide-961x150.png"], "rejected")
        self.wait(lambda: self.driver.execute_script(
            "var i = document.querySelector('.artwork img'); return i && i.complete && i.naturalWidth === 961"), "the picture")
        near = self.driver.find_element(By.ID, "near-miss").text
        if "960x150" not in near or "1 px wider" not in near:
            fail("near miss %r" % near)
        box = self.driver.execute_script("return document.querySelector('.nearbox').getAttribute('data-size')")
        if box != "960x150":
            fail("the near size drawn is %r" % box)

    def test_try_it_fix_it_makes_the_near_miss_upload_ready(self):
        self.try_upload("banner", self.files["wide-961x150.png"], "rejected")
        self.driver.find_element(By.ID, "fix-it").click()
        self.verdict("wide-961x150-fixed.png", "valid")
        self.renders_ready()
        note = self.driver.find_element(By.ID, "fix-note").text
        if "Fixed from wide-961x150.png" not in note or "resized" not in note:
            fail("the fix's changes %r" % note)
        link = self.driver.find_element(By.ID, "fix-download")
        if link.get_attribute("download") != "wide-961x150-fixed.png" or not link.get_attribute("href").startswith("blob:"):
            fail("the download link %r %r" % (link.get_attribute("download"), link.get_attribute("href")))
        size = self.driver.execute_script("return document.querySelector('#verdict') && [].map.call("
                                          "document.querySelectorAll('dd'), function (d) { return d.textContent })")
        if "960 x 150 px" not in size:
            fail("the fixed file's report %r" % size)

    def test_try_it_says_where_a_lone_320x50_is_enlarged_more_than_twice(self):
        path = self.artwork("strip-320x50.png", 320, 50)
        self.try_upload("banner", path)
        manifest = self.manifest("banner", path)
        expected = sorted(w["factor"] for r in manifest["renders"] for w in r["warnings"])
        shown = sorted(self.driver.execute_script(
            "return [].map.call(document.querySelectorAll('#renders figcaption .upscaled'), function (s) {"
            " return Number(s.getAttribute('data-factor')) })"))
        if shown != expected or len(expected) != 26 or max(expected) != 4.02:
            fail("enlarged slots shown %s, the manifest's %s" % (shown, expected))

    def test_try_it_interstitial_shows_safe_area_and_close_zone(self):
        self.try_upload("interstitial", self.artwork("inter-1080x1920.png", 1080, 1920))
        screens = self.driver.execute_script(
            "return [].map.call(document.querySelectorAll('#renders .screen'), function (s) {"
            " var a = s.querySelector('.safe'), c = s.querySelector('.close'); if (!a || !c) return null;"
            " a = a.getBoundingClientRect(); c = c.getBoundingClientRect();"
            " return [Math.abs(a.right - c.right), Math.abs(a.top - c.top), c.width, c.height] })")
        if not screens or None in screens:
            fail("screens without safe area or close zone: %s" % screens)
        for right, top, width, height in screens:
            if right > 1.5 or top > 1.5 or width < 5 or abs(width - height) > 1.5:
                fail("the close square is not in the safe area's top-right corner: %s" % screens)

    def test_try_it_fits_375_and_1280_for_every_product(self):
        uploads = {"banner": self.artwork("wide-2184x270.png", 2184, 270),
                   "interstitial": self.artwork("inter-1080x1920.png", 1080, 1920),
                   "companion": self.artwork("companion-640x100.png", 640, 100)}
        for product in PRODUCTS:
            for width in WIDTHS:
                def check():
                    self.try_upload(product, uploads[product])
                    past = self.overflow()
                    if past > 0:
                        fail("the try-it page (%s) scrolls sideways by %d px at %d" % (product, past, width))
                self.at_width(width, check)
        self.at_width(375, lambda: self.try_upload("banner", self.files["wide-961x150.png"], "rejected"))
