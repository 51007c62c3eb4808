import Foundation
import Hummingbird
import Logging

extension AppServer {
    /// `GET /_swiftuiweb/open?url=…`: opens an external URL with the app, as the system does on Apple's platforms
    /// (a link in another program, a custom scheme registered for the app). Like every route it needs the
    /// sign-in cookie. A new window is opened in the browser (a redirect to it); a URL a window already showing
    /// prefers is handed to that window, and this page says so (a page cannot bring another tab forward).
    static func openExternalURL(_ request: Request, host: AppHost, logger: Logger) async throws -> Response {
        guard let text = request.uri.queryParameters.get("url").map({ String($0) }), !text.isEmpty else {
            return AccessResponse.text(.badRequest, "open needs the URL to open: /_swiftuiweb/open?url=…")
        }
        guard let url = URL(string: text), url.scheme != nil else {
            return AccessResponse.text(.badRequest, "“\(text)” is not an absolute URL")
        }
        let opened: (id: String, isNew: Bool, title: String)
        do {
            opened = try await MainActor.run {
                let (scene, isNew) = try host.openExternalURL(url)
                return (scene.id, isNew, scene.title)
            }
        } catch {
            logger.warning("open: \(error)")
            return AccessResponse.text(.notFound, "\(error)")
        }
        if opened.isNew {
            return Response(status: .seeOther, headers: [.location: "/?w=" + opened.id, .cacheControl: "no-store"])
        }
        let title = opened.title.isEmpty ? "the app’s window" : "“\(opened.title)”"
        return AccessResponse.text(.ok, "Opened \(url.absoluteString) in \(title), which was already showing.")
    }
}
