"""Checks of what a designer sees, mixed into test_pages.Pages (which runs every `test_` method):
the guidance page of every product (contents, prompts from the top, tables that scroll in their
box, the safe-area diagrams, templates and test artwork) and no sideways scrolling at 375 or
1280 CSS pixels for any product; with the try-it page's checks (try_it_checks.TryItChecks)."""
import urllib.parse
import urllib.request

from selenium.webdriver.common.by import By

from try_it_checks import PRODUCTS, WIDTHS, TryItChecks


def fail(message):
    raise AssertionError(message)


class ViewChecks(TryItChecks):
    def at_width(self, width, action):
        """Runs `action` with the viewport `width` CSS pixels wide (a phone below 500)."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 500})
        try:
            return action()
        finally:
            self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    def overflow(self):
        """How far the page reaches past the viewport sideways (0: it does not scroll sideways)."""
        return self.driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")

    def guidance_page(self, product):
        self.load(self.open.base + "/v1/guidance?format=html&product=" + product)

    def test_guidance_of_every_product_fits_375_and_1280(self):
        for product in PRODUCTS:
            for width in WIDTHS:
                def check():
                    self.guidance_page(product)
                    past = self.overflow()
                    if past > 0:
                        fail("%s guidance scrolls sideways by %d px at %d" % (product, past, width))
                    # Every table sits in a box that scrolls on its own; at 375 a visible hint says so.
                    loose = self.driver.execute_script(
                        "return [].filter.call(document.querySelectorAll('table'), function (t) {"
                        " return !t.parentElement.classList.contains('scroll') }).length")
                    if loose:
                        fail("%s: %d tables outside a scrolling box" % (product, loose))
                    hints = self.driver.execute_script(
                        "return [].filter.call(document.querySelectorAll('.hint'), function (h) {"
                        " return h.getClientRects().length > 0 && /scroll/i.test(h.textContent) }).length")
                    tables = len(self.driver.find_elements(By.CSS_SELECTOR, ".scroll table"))
                    if width == 375 and hints != tables:
                        fail("%s at 375: %d scroll hints shown for %d tables" % (product, hints, tables))
                    if width == 1280 and hints:
                        fail("%s at 1280: scroll hints shown on a desktop" % product)
                self.at_width(width, check)

    def test_guidance_contents_lead_to_every_section_and_the_prompts_first(self):
        for product in PRODUCTS:
            self.guidance_page(product)
            links = self.driver.execute_script(
                "return [].map.call(document.querySelectorAll('nav.toc a'), function (a) { return a.getAttribute('href') })")
            if len(links) < 4 or links[0] != "#prompts":
                fail("%s contents %s: the prompts are not the first link" % (product, links))
            headings = self.driver.execute_script(
                "return [].map.call(document.querySelectorAll('h2'), function (h) { return '#' + h.id })")
            if sorted(links) != sorted(headings):
                fail("%s: contents %s, sections %s" % (product, links, headings))
            # The contents are in the first screen; following the first link brings the prompts up.
            top = self.driver.execute_script("return document.querySelector('nav.toc').getBoundingClientRect().bottom")
            if top > 900:
                fail("%s: the contents end at y %d, below the first screen" % (product, top))
            self.driver.find_element(By.CSS_SELECTOR, "nav.toc a[href='#prompts']").click()
            self.wait(lambda: abs(self.driver.execute_script(
                "return document.getElementById('prompts').getBoundingClientRect().top")) < 2, "the prompts at the top")
            if not self.driver.find_element(By.CSS_SELECTOR, "button[data-copy]").is_displayed():
                fail("%s: no Copy button after the link" % product)

    def test_guidance_draws_safe_areas_and_offers_templates_and_test_artwork(self):
        expected = {"banner": ["960x150", "1320x204", "2184x270"]}
        for product in PRODUCTS:
            self.guidance_page(product)
            figures = self.driver.execute_script(
                "return [].map.call(document.querySelectorAll('figure.diagram'), function (f) {"
                " var s = f.querySelector('svg'), a = f.querySelector('a[download]'), r = s.querySelectorAll('rect');"
                " return {view: s.getAttribute('viewBox'), rects: r.length, href: a.getAttribute('href'),"
                " name: a.getAttribute('download'), drawn: s.getBoundingClientRect().width,"
                " red: [].some.call(r, function (e) { return e.getAttribute('stroke') === '#a3140f' })} })")
            if not figures:
                fail("%s: no safe-area diagram" % product)
            if product in expected and [f["view"].split()[2] + "x" + f["view"].split()[3] for f in figures] != expected[product]:
                fail("%s diagrams %s" % (product, [f["view"] for f in figures]))
            for figure in figures:
                width, height = figure["view"].split()[2:]
                if figure["drawn"] < 100 or figure["rects"] < 2:
                    fail("%s: the %sx%s diagram is not drawn (%s)" % (product, width, height, figure))
                if figure["red"] != (product == "interstitial"):
                    fail("%s: close zone drawn %s" % (product, figure["red"]))
                prefix = "data:image/svg+xml,"
                if not figure["href"].startswith(prefix) or not figure["name"].endswith(".svg"):
                    fail("%s: template link %s" % (product, figure["href"][:60]))
                template = urllib.parse.unquote(figure["href"][len(prefix):])
                size = self.driver.execute_script(
                    "var d = new DOMParser().parseFromString(arguments[0], 'image/svg+xml').documentElement;"
                    " return d.namespaceURI === 'http://www.w3.org/2000/svg' ? [d.getAttribute('width'),"
                    " d.getAttribute('height'), d.querySelectorAll('rect').length] : null", template)
                if size != [width, height, figure["rects"]]:
                    fail("%s: the template is %s, not a %sx%s SVG with the guides" % (product, size, width, height))
            # The test artwork: each link loads the PNG it names.
            links = self.driver.execute_script(
                "return [].map.call(document.querySelectorAll('a[href^=\"/v1/test-artwork/\"]'), function (a) { return a.href })")
            if len(links) != 3:
                fail("%s: test artwork links %s" % (product, links))
            for link in links:
                # The page's policy lets it fetch nothing: the link is followed from here, as a download would.
                with urllib.request.urlopen(link) as response:
                    data = response.read()
                    answer = [response.status, int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")]
                name = link.rsplit("/", 1)[1][:-4]
                if answer != [200] + [int(n) for n in name.split("x")]:
                    fail("%s: %s answers %s" % (product, link, answer))

    def test_guidance_file_names_the_test_artwork_command(self):
        page = self.tool("guidance", "--format", "html")
        if "creative-tool test-artwork" not in page or "/v1/test-artwork/\"" in page:
            fail("the page written to a file does not say how to get the test artwork")
        if "data:image/svg+xml," not in page:
            fail("the page written to a file has no template")
