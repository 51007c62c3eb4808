/// The page a visitor without the cookie gets: it asks for the link the app printed when it started, or for
/// its token. It has no script and names nothing of the app's but its name.
enum SignInPage {
    /// The page for `appName`; `refused` adds a line saying the last token given was not this launch's, and
    /// `takesPassword` asks for the app's password as well.
    static func html(appName: String, refused: Bool, takesPassword: Bool = false) -> String {
        let name = HTML.escape(appName)
        let notice =
            refused
            ? "<p class=\"refused\" role=\"alert\">That token is not this launch’s"
                + (takesPassword ? ", nor the app’s password" : "")
                + ". The app makes a new token each time it starts: use the link it printed most recently.</p>"
            : ""
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Sign in to \(name)</title>
            <style>
            body { font: 15px system-ui, sans-serif; max-width: 34em; margin: 12vh auto; padding: 0 1em; color: #222; }
            h1 { font-size: 1.4em; } .refused { color: #a00; }
            input { font: inherit; width: 100%; box-sizing: border-box; padding: .4em; margin: .5em 0; }
            button { font: inherit; padding: .3em 1.2em; }
            </style></head>
            <body><main>
            <h1>\(name) is running on this computer</h1>
            <p>To open it, use the link the app printed when it started (it ends in <code>?token=…</code>),
            or paste that link or its token here\(takesPassword ? ", or type the app’s password" : "").</p>
            \(notice)
            <form method="post" action="\(AccessGate.signInPath)">
            <label for="token">\(takesPassword ? "Link, token or password" : "Link or token")</label>
            <input id="token" name="token" type="password" autocomplete="off" autofocus required>
            <button type="submit">Open</button>
            </form>
            </main></body></html>
            """
    }
}
