import Foundation
import SwiftUIWebDriver
import Testing

extension InBrowser {
    /// The Gallery example in headless Chromium: a 100,000-row list keeps a screenful of rows in the page while it
    /// scrolls to its end and back, with its selection; then every page of the gallery is visited, checked by its
    /// DOM and ARIA roles, and saved as a screenshot in the test artifacts.
    @Suite(.serialized, .enabled(if: BrowserEnvironment.shouldRun), .timeLimit(.minutes(3)))
    struct GalleryBrowserTests {
        @Test func galleryPagesAndALongList() async throws {
            let server = try ExampleServer("Gallery")
            try await server.start()
            defer { server.stop() }
            let driver = try await ChromeDriver()
            defer { driver.stop() }
            let browser = try await driver.session()
            try await browser.open(server.signInURL)
            try await waitUntil("the socket") { try await browser.connected() }

            let count = { @Sendable (selector: String) async throws -> Int in
                try await browser.run("return document.querySelectorAll(arguments[0]).length", [selector]) as? Int ?? -1
            }
            let rowsShown = { @Sendable () async throws -> [String] in
                try await browser.run(
                    """
                    return Array.from(document.querySelectorAll('.sw-detail [role=option]'))
                      .map(function(e){return e.textContent;});
                    """) as? [String] ?? []
            }
            // The long list: a screenful of rows (plus a screen above and below), not 100,000.
            try await waitUntil("the long list") { try await rowsShown().first?.hasPrefix("Row 0") == true }
            let firstRows = try await rowsShown().count
            #expect(firstRows > 5 && firstRows < 200, "\(firstRows) rows in the page")
            // The spacers make the page as tall as all the rows.
            let height = try await browser.run("return document.scrollingElement.scrollHeight") as? Int ?? 0
            #expect(height > 100_000 * 30, "page height \(height)")

            // Scroll to the end: the page asks for the last rows.
            _ = try await browser.run("document.scrollingElement.scrollTop=document.scrollingElement.scrollHeight")
            // The spacers are resized as rows are measured, so the end moves: keep scrolling to it, as a person would.
            try await waitUntil("the last row") {
                _ = try await browser.run("document.scrollingElement.scrollTop=document.scrollingElement.scrollHeight")
                return try await rowsShown().contains { $0.hasPrefix("Row 99,999") }
            }
            #expect(try await count(".sw-detail [role=option]") < 200)
            try await waitUntil("the last row in view") {
                _ = try await browser.run("document.scrollingElement.scrollTop=document.scrollingElement.scrollHeight")
                return try await browser.run(
                    """
                    var r=Array.from(document.querySelectorAll('.sw-detail [role=option]')).pop().getBoundingClientRect();
                    return r.bottom>0&&r.top<innerHeight;
                    """) as? Bool == true
            }

            // Select a row in the middle, scroll away and back: the selection stays.
            _ = try await browser.run("document.scrollingElement.scrollTop=document.scrollingElement.scrollHeight/2")
            try await waitUntil("rows near the middle") {
                try await rowsShown().contains { $0.hasPrefix("Row 50,0") || $0.hasPrefix("Row 49,9") }
            }
            let middleTop = try await browser.run("return document.scrollingElement.scrollTop") as? Double ?? 0
            let middle =
                try await browser.run(
                    """
                    var rows=Array.from(document.querySelectorAll('.sw-detail [role=option]'));
                    var r=rows.find(function(e){var b=e.getBoundingClientRect();return b.top>100&&b.bottom<innerHeight;});
                    r.click();return r.textContent;
                    """) as? String ?? ""
            let number = String(middle.dropFirst(4).prefix { $0 != "e" && $0 != "o" })
            try await waitUntil("the selection") {
                try await browser.run(
                    "return document.body.textContent.indexOf(arguments[0])>=0", ["Selected: row \(number)"]) as? Bool
                    == true
            }
            _ = try await browser.run("document.scrollingElement.scrollTop=0")
            try await waitUntil("the first rows again") { try await rowsShown().first?.hasPrefix("Row 0") == true }
            try await waitUntil("the selected row back, still selected") {
                _ = try await browser.run("document.scrollingElement.scrollTop=arguments[0]", [middleTop])
                return try await browser.run(
                    "var s=document.querySelector('.sw-detail .sw-selected');return s?s.textContent:''") as? String
                    == middle
            }
            // A full swipe (touch) across a row runs its first swipe action.
            let swiped =
                try await browser.run(
                    """
                    var rows=Array.from(document.querySelectorAll('.sw-detail [data-swipe]'));
                    var r=rows.find(function(e){var b=e.getBoundingClientRect();return b.top>100&&b.bottom<innerHeight;});
                    var b=r.getBoundingClientRect(),y=b.top+b.height/2;
                    function p(t,x){r.dispatchEvent(new PointerEvent(t,{pointerType:'touch',clientX:x,clientY:y,bubbles:true}));}
                    p('pointerdown',b.right-5);p('pointermove',b.left+10);p('pointerup',b.left+10);
                    return r.textContent;
                    """) as? String ?? ""
            let swipedNumber = String(swiped.dropFirst(4).prefix { $0 != "e" && $0 != "o" })
            try await waitUntil("the swipe action") {
                try await browser.run(
                    "return document.body.textContent.indexOf(arguments[0])>=0", ["Flagged: row \(swipedNumber)"])
                    as? Bool
                    == true
            }
            let shot = try await browser.screenshot()
            try shot.write(to: artifactsDirectory.appendingPathComponent("gallery-long-list.png"))
            _ = try await browser.run("document.scrollingElement.scrollTop=0")

            // Every page: open it from the sidebar, check what it drew, save a screenshot.
            let pages: [(String, String)] = [
                ("Lazy stack", ".sw-lazy.sw-pin-h .sw-section-header"),
                ("Shapes", ".sw-detail .sw-hstack > *"),
                ("Progress", "progress"),
                ("Grids", ".sw-detail .sw-lazygrid > *, .sw-detail [style*=grid] > *"),
                ("Tabs", "[role=tab]"),
                ("Effects", "[data-hover]"),
                ("Animation", "[data-tr]"),
                ("Editing", "[role=searchbox]"),
                ("Menus", "[data-context]"),
                ("Gradients", "[style*=conic-gradient]"),
                ("Paths", "svg.sw-shape-svg path[pathLength]"),
                ("Focus", "input[type=password]"),
                ("Geometry", "[data-geometry]"),
                ("Accessibility", "[aria-label=Favorite]"),
                ("Canvas", "svg.sw-canvas circle, svg.sw-canvas path"),
                ("Gestures", "[data-tap]"),
            ]
            for (title, selector) in pages {
                _ = try await browser.run(
                    """
                    var t=arguments[0],r=Array.from(document.querySelectorAll('.sw-sidebar [role=option]'))
                      .find(function(e){return e.textContent.trim()===t;});r.click();
                    """, [title])
                try await waitUntil("the \(title) page") { try await count(selector) > 0 }
                if title == "Lazy stack" {
                    // Four sections of 5,000 rows each render a window each, inside the page's own scroll view.
                    #expect(try await count(".sw-lazy .sw-window-pad") == 8)
                    #expect(try await count(".sw-lazy .sw-text") < 400)
                    _ = try await browser.run(
                        "var s=document.querySelector('.sw-detail .sw-scroll');s.scrollTop=s.scrollHeight")
                    try await waitUntil("the last section's last row") {
                        try await browser.run("return document.body.textContent.indexOf('Night dose 5000')>=0") as? Bool
                            == true
                    }
                    // The last section's header is pinned to the top of the scroll view.
                    let pinned =
                        try await browser.run(
                            """
                            var s=document.querySelector('.sw-detail .sw-scroll').getBoundingClientRect().top;
                            var h=Array.from(document.querySelectorAll('.sw-lazy .sw-section-header')).pop().getBoundingClientRect().top;
                            return Math.abs(h-s)<2;
                            """) as? Bool
                    #expect(pinned == true)
                }
                if title == "Effects" {
                    // minimumScaleFactor: the long 28-point title is shrunk (to no less than half) to fit its 240-point frame.
                    let sizes =
                        try await browser.run(
                            """
                            var t=document.querySelector('[data-min-scale]');
                            return [parseFloat(getComputedStyle(t).fontSize),t.scrollWidth,t.parentElement.clientWidth];
                            """) as? [Double] ?? []
                    #expect(
                        sizes.count == 3 && sizes[0] < 28 && sizes[0] >= 14,
                        "font size, text width, frame width: \(sizes)")
                    // Dragging the card with a mouse moves it; the release sets its new place.
                    _ = try await browser.run(
                        """
                        var c=document.querySelector('[data-drag]'),r=c.getBoundingClientRect(),x=r.left+10,y=r.top+10;
                        function p(t,dx,dy){c.dispatchEvent(new PointerEvent(t,{pointerType:'mouse',pointerId:1,button:0,clientX:x+dx,clientY:y+dy,bubbles:true}));}
                        p('pointerdown',0,0);p('pointermove',30,5);p('pointermove',60,12);
                        setTimeout(function(){p('pointerup',60,12);},50);
                        """)
                    try await waitUntil("the card moved") {
                        try await browser.text(".sw-detail").contains("Moved 60,12")
                    }
                }
                if title == "Animation" {
                    // Hiding the card plays its exit transition before it goes; showing it plays the entrance.
                    // The page counts the transitions' animations as they start, so a busy machine that polls
                    // after a 0.4 s animation is over still sees that it played.
                    _ = try await browser.run(
                        """
                        window.__played=[];document.addEventListener('animationstart',function(e){
                         if(e.target.matches('[data-tr]'))window.__played.push(e.animationName);});
                        """)
                    let played = { @Sendable () async throws -> [String] in
                        try await browser.run("return window.__played") as? [String] ?? []
                    }
                    let hide = try await browser.find(xpath: "//button[contains(., 'Hide the card')]")
                    try await browser.click(hide)
                    try await waitUntil("the card leaving") { try await played().contains("sw-exit") }
                    try await waitUntil("the card gone") { try await count("[data-tr]") == 0 }
                    let show = try await browser.find(xpath: "//button[contains(., 'Show the card')]")
                    try await browser.click(show)
                    try await waitUntil("the card entering") { try await played().contains("sw-enter") }
                    try await waitUntil("the entrance over") { try await count("[data-tr]:not(.sw-enter)") == 1 }
                }
                if title == "Editing" {
                    // Filter, then delete a row from the trailing button; Edit shows move buttons.
                    let field = try await browser.find(css: "[role=searchbox]")
                    try await browser.type(field, "in")
                    try await waitUntil("the filtered list") {
                        try await browser.run(
                            "return Array.from(document.querySelectorAll('.sw-detail .sw-editable')).map(function(e){return e.textContent;}).join(',')"
                        ) as? String == "Aspirin,Metformin,Lisinopril"
                    }
                    _ = try await browser.run(
                        "Array.from(document.querySelectorAll('.sw-editable')).find(function(e){return e.textContent==='Metformin';}).querySelector('[aria-label=Delete]').click()"
                    )
                    try await waitUntil("four medications") {
                        try await browser.text(".sw-detail").contains("4 medications")
                    }
                    let edit = try await browser.find(
                        xpath: "//*[contains(@class,'sw-detail')]//button[normalize-space(.)='Edit']")
                    try await browser.click(edit)
                    try await waitUntil("move buttons") { try await count("[aria-label='Move down']") > 0 }
                }
                if title == "Menus" {
                    // A menu opens from its button and its item runs; a right-click opens the context menu at the pointer.
                    let actions = try await browser.find(xpath: "//button[@data-menu and contains(., 'Actions')]")
                    try await browser.click(actions)
                    try await waitUntil("the open menu") { try await count(".sw-inline-menu.sw-open [role=menu]") == 1 }
                    let duplicate = try await browser.find(
                        xpath: "//button[@role='menuitem' and contains(., 'Duplicate')]")
                    try await browser.click(duplicate)
                    try await waitUntil("the item's action") {
                        try await browser.text(".sw-detail").contains("Duplicated")
                    }
                    #expect(try await count(".sw-menu.sw-open") == 0)
                    _ = try await browser.run(
                        """
                        var t=document.querySelector('[data-context]'),r=t.getBoundingClientRect();
                        t.dispatchEvent(new MouseEvent('contextmenu',{bubbles:true,cancelable:true,clientX:r.left+5,clientY:r.top+5}));
                        """)
                    try await waitUntil("the context menu") { try await count(".sw-context.sw-open") == 1 }
                    let focused = try await browser.run("return document.activeElement.textContent") as? String
                    #expect(focused == "Mark taken")
                    _ = try await browser.run("document.activeElement.click()")
                    try await waitUntil("the context item's action") {
                        try await browser.text(".sw-detail").contains("Marked taken")
                    }
                    // A popover opens below its button and closes on Escape.
                    let about = try await browser.find(xpath: "//button[contains(., 'About this dose')]")
                    try await browser.click(about)
                    try await waitUntil("the popover") { try await count(".sw-popover-below[role=dialog]") == 1 }
                    let below =
                        try await browser.run(
                            """
                            var b=document.querySelector('.sw-popover').getBoundingClientRect(),
                                a=document.querySelector('.sw-popover-anchor').getBoundingClientRect();return b.top>=a.bottom;
                            """) as? Bool
                    #expect(below == true)
                    _ = try await browser.run(
                        "document.body.dispatchEvent(new KeyboardEvent('keydown',{key:'Escape',bubbles:true}))")
                    try await waitUntil("the popover closed") { try await count(".sw-popover") == 0 }
                }
                if title == "Paths" {
                    // SVG shapes are laid out at their frame's size.
                    let size =
                        try await browser.run(
                            "var r=document.querySelector('svg.sw-shape-svg').getBoundingClientRect();return [r.width,r.height];"
                        )
                        as? [Double] ?? []
                    #expect(size == [80, 70], "\(size)")
                }
                if title == "Focus" {
                    // The app moves focus: Start over focuses the name field; Return there moves on to the password.
                    let start = try await browser.find(xpath: "//button[contains(., 'Start over')]")
                    try await browser.click(start)
                    try await waitUntil("the name field focused") {
                        try await browser.run("return document.activeElement.placeholder") as? String == "Name"
                    }
                    try await waitUntil("the state read back") {
                        try await browser.text(".sw-detail").contains("Editing name")
                    }
                    let nameField = try await browser.find(css: "input[placeholder=Name]")
                    try await browser.type(nameField, "Ada\n")
                    try await waitUntil("the password field focused") {
                        try await browser.run("return document.activeElement.type") as? String == "password"
                    }
                    try await waitUntil("the state follows") {
                        try await browser.text(".sw-detail").contains("Editing password")
                    }
                }
                if title == "Gestures" {
                    let detail = { @Sendable () async throws -> String in try await browser.text(".sw-detail") }
                    // A double click, then Return on the focused view (the keyboard's whole gesture).
                    _ = try await browser.run(
                        """
                        var t=document.querySelector('[data-tap]'),r=t.getBoundingClientRect();
                        t.dispatchEvent(new MouseEvent('click',{bubbles:true,detail:1,clientX:r.left+2,clientY:r.top+2}));
                        t.dispatchEvent(new MouseEvent('click',{bubbles:true,detail:2,clientX:r.left+2,clientY:r.top+2}));
                        """)
                    try await waitUntil("a double tap") { try await detail().contains("Double-tap: 1") }
                    _ = try await browser.run(
                        """
                        var t=document.querySelector('[data-tap]');t.focus();
                        t.dispatchEvent(new KeyboardEvent('keydown',{key:'Enter',bubbles:true}));
                        """)
                    try await waitUntil("a tap from the keyboard") { try await detail().contains("Double-tap: 2") }
                    // A press held for the second it takes.
                    _ = try await browser.run(
                        """
                        var p=document.querySelector('[data-press]'),r=p.getBoundingClientRect();
                        p.dispatchEvent(new PointerEvent('pointerdown',{bubbles:true,pointerId:7,clientX:r.left+3,clientY:r.top+3}));
                        """)
                    try await waitUntil("the press showing") { try await detail().contains("Keep holding") }
                    try await waitUntil("the press lasting") { try await detail().contains("Held") }
                    _ = try await browser.run(
                        "document.dispatchEvent(new PointerEvent('pointerup',{bubbles:true,pointerId:7}))")
                    // A trackpad's pinch (a wheel with Control held), then two fingers turning.
                    _ = try await browser.run(
                        """
                        var m=document.querySelector('[data-magnify]'),r=m.getBoundingClientRect();
                        m.dispatchEvent(new WheelEvent('wheel',{bubbles:true,cancelable:true,ctrlKey:true,deltaY:-40,
                          clientX:r.left+80,clientY:r.top+80}));
                        """)
                    try await waitUntil("the pinch") { try await detail().contains("Scale 1.5") }
                    _ = try await browser.run(
                        """
                        var m=document.querySelector('[data-rotate]'),r=m.getBoundingClientRect(),cx=r.left+80,cy=r.top+80;
                        function ev(type,id,x,y){m.dispatchEvent(new PointerEvent(type,{bubbles:true,pointerId:id,
                          pointerType:'touch',clientX:x,clientY:y}));}
                        ev('pointerdown',11,cx-40,cy);ev('pointerdown',12,cx+40,cy);
                        ev('pointermove',11,cx,cy-40);ev('pointermove',12,cx,cy+40);
                        setTimeout(function(){ev('pointerup',11,cx,cy-40);ev('pointerup',12,cx,cy+40);},100);
                        """)
                    try await waitUntil("the turn") { try await detail().contains("turned 90°") }
                }
                if title == "Canvas" {
                    // The renderer drew for the size the page measured: the SVG fills its box, and the text is there.
                    let fit =
                        try await browser.run(
                            """
                            var s=document.querySelector('svg.sw-canvas'),b=s.parentElement.getBoundingClientRect();
                            return [Math.round(b.width)-Number(s.getAttribute('width')),s.querySelectorAll('path').length];
                            """) as? [Int] ?? []
                    #expect(fit.count == 2 && abs(fit[0]) <= 1 && fit[1] == 5, "\(fit)")
                    #expect(try await browser.text("svg.sw-canvas").contains("2 of 3 taken"))
                }
                if title == "Geometry" {
                    // The page measures the reader; the server renders the bars for its width.
                    let width =
                        try await browser.run(
                            "return Math.round(document.querySelector('[data-geometry]').getBoundingClientRect().width)"
                        )
                        as? Int
                        ?? 0
                    #expect(width > 300)
                    try await waitUntil("the content rendered for the measured width") {
                        try await browser.text("[data-geometry]").contains("\(width) points wide")
                    }
                    let widest =
                        try await browser.run(
                            """
                            return Math.round(Math.max.apply(null,Array.from(document.querySelectorAll('[data-geometry] .sw-shape'))
                              .map(function(e){return e.getBoundingClientRect().width;})));
                            """) as? Int ?? 0
                    #expect(widest == width - 40, "\(widest) of \(width)")
                    // ViewThatFits: the long text fits this width; in a narrow window the short one shows.
                    let shown = { @Sendable () async throws -> String in
                        try await browser.text(".sw-fit-option.sw-fit-shown")
                    }
                    try await waitUntil("the long text chosen") { try await shown().contains("breakfast") }
                    _ = try await browser.run("document.querySelector('.sw-fits').style.width='200px'")
                    try await waitUntil("the short text chosen") { try await shown() == "Aspirin 100 mg, daily" }
                }
                let name = title.lowercased().replacingOccurrences(of: " ", with: "-")
                let shot = try await browser.screenshot()
                try shot.write(to: artifactsDirectory.appendingPathComponent("gallery-\(name).png"))
            }

            // The preview gallery: the app's #Previews and PreviewProviders, each shown when picked.
            try await browser.open(server.url + "?g=_previews")
            try await waitUntil("the preview gallery") {
                try await browser.text(".sw-sidebar").contains("A dose counter")
            }
            #expect(try await browser.text(".sw-sidebar").contains("Triangle"))
            try await browser.click(try await browser.find(xpath: "//*[@data-click][contains(., 'A dose counter')]"))
            try await waitUntil("the dose counter") { try await browser.text(".sw-detail").contains("Taken 1 of 3") }
            try await browser.click(try await browser.find(xpath: "//button[contains(., 'Take one')]"))
            try await waitUntil("its @Previewable state") {
                try await browser.text(".sw-detail").contains("Taken 2 of 3")
            }
            try await browser.screenshot().write(to: artifactsDirectory.appendingPathComponent("gallery-previews.png"))
            await browser.quit()
        }
    }
}
