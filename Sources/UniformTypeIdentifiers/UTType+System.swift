// The system's declared types: identifier, parents, filename extensions, MIME types, description.
// From Apple's UTType documentation and the system declarations it lists.

extension UTType {
    static let systemTable: [UTTypeDeclaration] = [
        UTTypeDeclaration(
            "public.item", parents: [], extensions: [], mimeTypes: [], description: "item", kind: .system),
        UTTypeDeclaration(
            "public.content", parents: [], extensions: [], mimeTypes: [], description: "content", kind: .system),
        UTTypeDeclaration(
            "public.composite-content", parents: ["public.content"], extensions: [], mimeTypes: [],
            description: "mixed content", kind: .system),
        UTTypeDeclaration(
            "public.data", parents: ["public.item"], extensions: [], mimeTypes: ["application/octet-stream"],
            description: "data", kind: .system),
        UTTypeDeclaration(
            "public.directory", parents: ["public.item"], extensions: [], mimeTypes: [], description: "folder",
            kind: .system),
        UTTypeDeclaration(
            "public.folder", parents: ["public.directory"], extensions: [], mimeTypes: [], description: "folder",
            kind: .system),
        UTTypeDeclaration(
            "public.volume", parents: ["public.folder"], extensions: [], mimeTypes: [], description: "volume",
            kind: .system),
        UTTypeDeclaration(
            "com.apple.package", parents: ["public.directory"], extensions: [], mimeTypes: [], description: "package",
            kind: .system),
        UTTypeDeclaration(
            "com.apple.bundle", parents: ["public.directory"], extensions: [], mimeTypes: [], description: "bundle",
            kind: .system),
        UTTypeDeclaration(
            "com.apple.application", parents: ["public.data"], extensions: [], mimeTypes: [],
            description: "application", kind: .system),
        UTTypeDeclaration(
            "com.apple.application-bundle",
            parents: ["com.apple.application", "com.apple.bundle", "com.apple.package"], extensions: ["app"],
            mimeTypes: [], description: "application", kind: .system),
        UTTypeDeclaration(
            "public.executable", parents: ["public.item"], extensions: [], mimeTypes: [], description: "executable",
            kind: .system),
        UTTypeDeclaration(
            "public.unix-executable", parents: ["public.data", "public.executable"], extensions: [], mimeTypes: [],
            description: "Unix executable", kind: .system),
        UTTypeDeclaration(
            "public.symlink", parents: ["public.item"], extensions: [], mimeTypes: [], description: "symbolic link",
            kind: .system),
        UTTypeDeclaration(
            "com.apple.alias-file", parents: ["public.data"], extensions: [], mimeTypes: [], description: "alias",
            kind: .system),
        UTTypeDeclaration(
            "com.apple.resolvable", parents: [], extensions: [], mimeTypes: [], description: "resolvable", kind: .system
        ),
        UTTypeDeclaration(
            "public.url", parents: ["public.data"], extensions: [], mimeTypes: [], description: "URL", kind: .system),
        UTTypeDeclaration(
            "public.file-url", parents: ["public.url"], extensions: [], mimeTypes: [], description: "file URL",
            kind: .system),
        UTTypeDeclaration(
            "public.text", parents: ["public.data", "public.content"], extensions: [], mimeTypes: ["text/*"],
            description: "text", kind: .system),
        UTTypeDeclaration(
            "public.plain-text", parents: ["public.text"], extensions: ["txt", "text"], mimeTypes: ["text/plain"],
            description: "plain text", kind: .system),
        UTTypeDeclaration(
            "public.utf8-plain-text", parents: ["public.plain-text"], extensions: [],
            mimeTypes: ["text/plain;charset=utf-8"], description: "Unicode (UTF-8) text", kind: .system),
        UTTypeDeclaration(
            "public.utf16-external-plain-text", parents: ["public.plain-text"], extensions: [], mimeTypes: [],
            description: "Unicode (UTF-16) text", kind: .system),
        UTTypeDeclaration(
            "public.utf16-plain-text", parents: ["public.plain-text"], extensions: [], mimeTypes: [],
            description: "Unicode (UTF-16) text", kind: .system),
        UTTypeDeclaration(
            "public.delimited-values-text", parents: ["public.text"], extensions: [], mimeTypes: [],
            description: "delimited text", kind: .system),
        UTTypeDeclaration(
            "public.comma-separated-values-text", parents: ["public.delimited-values-text"], extensions: ["csv"],
            mimeTypes: ["text/csv", "text/comma-separated-values"], description: "comma-separated values", kind: .system
        ),
        UTTypeDeclaration(
            "public.tab-separated-values-text", parents: ["public.delimited-values-text"], extensions: ["tsv"],
            mimeTypes: ["text/tab-separated-values"], description: "tab-separated values", kind: .system),
        UTTypeDeclaration(
            "public.utf8-tab-separated-values-text", parents: ["public.tab-separated-values-text"], extensions: [],
            mimeTypes: [], description: "UTF-8 tab-separated values", kind: .system),
        UTTypeDeclaration(
            "public.rtf", parents: ["public.text"], extensions: ["rtf"], mimeTypes: ["text/rtf", "application/rtf"],
            description: "rich text (RTF)", kind: .system),
        UTTypeDeclaration(
            "public.html", parents: ["public.text"], extensions: ["html", "htm", "shtml"], mimeTypes: ["text/html"],
            description: "HTML text", kind: .system),
        UTTypeDeclaration(
            "public.xml", parents: ["public.text"], extensions: ["xml"], mimeTypes: ["application/xml", "text/xml"],
            description: "XML text", kind: .system),
        UTTypeDeclaration(
            "public.yaml", parents: ["public.text"], extensions: ["yaml", "yml"], mimeTypes: ["application/x-yaml"],
            description: "YAML", kind: .system),
        UTTypeDeclaration(
            "public.json", parents: ["public.text"], extensions: ["json"], mimeTypes: ["application/json"],
            description: "JSON", kind: .system),
        UTTypeDeclaration(
            "com.apple.property-list", parents: ["public.data"], extensions: ["plist"], mimeTypes: [],
            description: "property list", kind: .system),
        UTTypeDeclaration(
            "com.apple.xml-property-list", parents: ["public.xml", "com.apple.property-list"], extensions: [],
            mimeTypes: [], description: "XML property list", kind: .system),
        UTTypeDeclaration(
            "com.apple.binary-property-list", parents: ["com.apple.property-list"], extensions: [], mimeTypes: [],
            description: "binary property list", kind: .system),
        UTTypeDeclaration(
            "public.source-code", parents: ["public.plain-text"], extensions: [], mimeTypes: [],
            description: "source code", kind: .system),
        UTTypeDeclaration(
            "public.swift-source", parents: ["public.source-code"], extensions: ["swift"], mimeTypes: [],
            description: "Swift source", kind: .system),
        UTTypeDeclaration(
            "public.c-source", parents: ["public.source-code"], extensions: ["c"], mimeTypes: [],
            description: "C source", kind: .system),
        UTTypeDeclaration(
            "public.c-header", parents: ["public.source-code"], extensions: ["h"], mimeTypes: [],
            description: "C header", kind: .system),
        UTTypeDeclaration(
            "public.script", parents: ["public.source-code"], extensions: [], mimeTypes: [], description: "script",
            kind: .system),
        UTTypeDeclaration(
            "public.shell-script", parents: ["public.script"], extensions: ["sh", "command"],
            mimeTypes: ["application/x-sh"], description: "shell script", kind: .system),
        UTTypeDeclaration(
            "public.python-script", parents: ["public.script"], extensions: ["py"], mimeTypes: ["text/x-python-script"],
            description: "Python script", kind: .system),
        UTTypeDeclaration(
            "com.netscape.javascript-source", parents: ["public.source-code", "public.executable"],
            extensions: ["js", "mjs"], mimeTypes: ["text/javascript", "application/javascript"],
            description: "JavaScript", kind: .system),
        UTTypeDeclaration(
            "public.log", parents: ["public.plain-text"], extensions: ["log"], mimeTypes: [], description: "log file",
            kind: .system),
        UTTypeDeclaration(
            "public.vcard", parents: ["public.text"], extensions: ["vcf", "vcard"],
            mimeTypes: ["text/vcard", "text/x-vcard"], description: "vCard", kind: .system),
        UTTypeDeclaration(
            "public.calendar-event", parents: ["public.item"], extensions: [], mimeTypes: [],
            description: "calendar event", kind: .system),
        UTTypeDeclaration(
            "com.apple.ical.ics", parents: ["public.text", "public.calendar-event"], extensions: ["ics"],
            mimeTypes: ["text/calendar"], description: "iCalendar file", kind: .system),
        UTTypeDeclaration(
            "public.email-message", parents: ["public.data", "public.content"], extensions: ["eml"],
            mimeTypes: ["message/rfc822"], description: "email message", kind: .system),
        UTTypeDeclaration(
            "public.image", parents: ["public.data", "public.content"], extensions: [], mimeTypes: ["image/*"],
            description: "image", kind: .system),
        UTTypeDeclaration(
            "public.png", parents: ["public.image"], extensions: ["png"], mimeTypes: ["image/png"],
            description: "PNG image", kind: .system),
        UTTypeDeclaration(
            "public.jpeg", parents: ["public.image"], extensions: ["jpeg", "jpg", "jpe"], mimeTypes: ["image/jpeg"],
            description: "JPEG image", kind: .system),
        UTTypeDeclaration(
            "com.compuserve.gif", parents: ["public.image"], extensions: ["gif"], mimeTypes: ["image/gif"],
            description: "GIF image", kind: .system),
        UTTypeDeclaration(
            "public.tiff", parents: ["public.image"], extensions: ["tiff", "tif"], mimeTypes: ["image/tiff"],
            description: "TIFF image", kind: .system),
        UTTypeDeclaration(
            "com.microsoft.bmp", parents: ["public.image"], extensions: ["bmp"], mimeTypes: ["image/bmp"],
            description: "Windows bitmap image", kind: .system),
        UTTypeDeclaration(
            "com.microsoft.ico", parents: ["public.image"], extensions: ["ico"],
            mimeTypes: ["image/vnd.microsoft.icon"], description: "Windows icon image", kind: .system),
        UTTypeDeclaration(
            "public.heic", parents: ["public.heif-standard"], extensions: ["heic"], mimeTypes: ["image/heic"],
            description: "HEIC image", kind: .system),
        UTTypeDeclaration(
            "public.heif", parents: ["public.heif-standard"], extensions: ["heif"], mimeTypes: ["image/heif"],
            description: "HEIF image", kind: .system),
        UTTypeDeclaration(
            "public.heif-standard", parents: ["public.image"], extensions: [], mimeTypes: [], description: "HEIF image",
            kind: .system),
        UTTypeDeclaration(
            "org.webmproject.webp", parents: ["public.image"], extensions: ["webp"], mimeTypes: ["image/webp"],
            description: "WebP image", kind: .system),
        UTTypeDeclaration(
            "public.svg-image", parents: ["public.image", "public.xml"], extensions: ["svg"],
            mimeTypes: ["image/svg+xml"], description: "SVG image", kind: .system),
        UTTypeDeclaration(
            "public.camera-raw-image", parents: ["public.image"], extensions: [], mimeTypes: [],
            description: "raw image", kind: .system),
        UTTypeDeclaration(
            "com.apple.live-photo", parents: [], extensions: [], mimeTypes: [], description: "Live Photo", kind: .system
        ),
        UTTypeDeclaration(
            "com.adobe.pdf", parents: ["public.data", "public.composite-content"], extensions: ["pdf"],
            mimeTypes: ["application/pdf"], description: "PDF document", kind: .system),
        UTTypeDeclaration(
            "org.idpf.epub-container", parents: ["public.zip-archive"], extensions: ["epub"],
            mimeTypes: ["application/epub+zip"], description: "EPUB document", kind: .system),
        UTTypeDeclaration(
            "public.font", parents: ["public.data", "public.content"], extensions: [], mimeTypes: [],
            description: "font", kind: .system),
        UTTypeDeclaration(
            "public.audiovisual-content", parents: ["public.data", "public.content"], extensions: [], mimeTypes: [],
            description: "audiovisual content", kind: .system),
        UTTypeDeclaration(
            "public.movie", parents: ["public.audiovisual-content"], extensions: [], mimeTypes: ["video/*"],
            description: "movie", kind: .system),
        UTTypeDeclaration(
            "public.video", parents: ["public.movie"], extensions: [], mimeTypes: [], description: "video",
            kind: .system),
        UTTypeDeclaration(
            "public.audio", parents: ["public.audiovisual-content"], extensions: [], mimeTypes: ["audio/*"],
            description: "audio", kind: .system),
        UTTypeDeclaration(
            "public.mp3", parents: ["public.audio"], extensions: ["mp3"], mimeTypes: ["audio/mpeg"],
            description: "MP3 audio", kind: .system),
        UTTypeDeclaration(
            "com.microsoft.waveform-audio", parents: ["public.audio"], extensions: ["wav", "wave"],
            mimeTypes: ["audio/wav", "audio/x-wav"], description: "Waveform audio", kind: .system),
        UTTypeDeclaration(
            "public.mpeg-4", parents: ["public.movie"], extensions: ["mp4", "mpeg4"], mimeTypes: ["video/mp4"],
            description: "MPEG-4 movie", kind: .system),
        UTTypeDeclaration(
            "public.mpeg-4-audio", parents: ["public.audio"], extensions: ["m4a"], mimeTypes: ["audio/mp4"],
            description: "MPEG-4 audio", kind: .system),
        UTTypeDeclaration(
            "com.apple.quicktime-movie", parents: ["public.movie"], extensions: ["mov", "qt"],
            mimeTypes: ["video/quicktime"], description: "QuickTime movie", kind: .system),
        UTTypeDeclaration(
            "public.archive", parents: ["public.data"], extensions: [], mimeTypes: [], description: "archive",
            kind: .system),
        UTTypeDeclaration(
            "public.zip-archive", parents: ["public.archive"], extensions: ["zip"], mimeTypes: ["application/zip"],
            description: "ZIP archive", kind: .system),
        UTTypeDeclaration(
            "org.gnu.gnu-zip-archive", parents: ["public.archive"], extensions: ["gz", "gzip"],
            mimeTypes: ["application/gzip", "application/x-gzip"], description: "gzip archive", kind: .system),
        UTTypeDeclaration(
            "public.bzip2-archive", parents: ["public.archive"], extensions: ["bz2"],
            mimeTypes: ["application/x-bzip2"], description: "bzip2 archive", kind: .system),
        UTTypeDeclaration(
            "public.database", parents: ["public.data"], extensions: [], mimeTypes: [], description: "database",
            kind: .system),
        UTTypeDeclaration(
            "public.message", parents: ["public.data"], extensions: [], mimeTypes: [], description: "message",
            kind: .system),
        UTTypeDeclaration(
            "public.presentation", parents: ["public.composite-content"], extensions: [], mimeTypes: [],
            description: "presentation", kind: .system),
        UTTypeDeclaration(
            "public.spreadsheet", parents: ["public.content"], extensions: [], mimeTypes: [],
            description: "spreadsheet", kind: .system),
        UTTypeDeclaration(
            "public.contact", parents: ["public.data"], extensions: [], mimeTypes: [], description: "contact",
            kind: .system),
        UTTypeDeclaration(
            "public.to-do-item", parents: ["public.item"], extensions: [], mimeTypes: [], description: "to-do item",
            kind: .system),
        UTTypeDeclaration(
            "public.x509-certificate", parents: ["public.data"], extensions: ["cer", "crt", "der"],
            mimeTypes: ["application/x-x509-ca-cert", "application/pkix-cert"], description: "X.509 certificate",
            kind: .system),
        UTTypeDeclaration(
            "com.rsa.pkcs-12", parents: ["public.data"], extensions: ["p12", "pfx"],
            mimeTypes: ["application/x-pkcs12"], description: "PKCS #12 archive", kind: .system),
    ]

    private static func system(_ identifier: String) -> UTType {
        // The system table declares every identifier named below; a missing one is a bug here.
        guard let type = UTType(identifier) else {
            preconditionFailure("\(identifier) is missing from the system table")
        }
        return type
    }

    /// The system type `public.item` (item).
    public static var item: UTType { system("public.item") }
    /// The system type `public.content` (content).
    public static var content: UTType { system("public.content") }
    /// The system type `public.composite-content` (mixed content).
    public static var compositeContent: UTType { system("public.composite-content") }
    /// The system type `public.data` (data).
    public static var data: UTType { system("public.data") }
    /// The system type `public.directory` (folder).
    public static var directory: UTType { system("public.directory") }
    /// The system type `public.folder` (folder).
    public static var folder: UTType { system("public.folder") }
    /// The system type `public.volume` (volume).
    public static var volume: UTType { system("public.volume") }
    /// The system type `com.apple.package` (package).
    public static var package: UTType { system("com.apple.package") }
    /// The system type `com.apple.bundle` (bundle).
    public static var bundle: UTType { system("com.apple.bundle") }
    /// The system type `com.apple.application` (application).
    public static var application: UTType { system("com.apple.application") }
    /// The system type `com.apple.application-bundle` (application).
    public static var applicationBundle: UTType { system("com.apple.application-bundle") }
    /// The system type `public.executable` (executable).
    public static var executable: UTType { system("public.executable") }
    /// The system type `public.unix-executable` (Unix executable).
    public static var unixExecutable: UTType { system("public.unix-executable") }
    /// The system type `public.symlink` (symbolic link).
    public static var symbolicLink: UTType { system("public.symlink") }
    /// The system type `com.apple.alias-file` (alias).
    public static var aliasFile: UTType { system("com.apple.alias-file") }
    /// The system type `com.apple.resolvable` (resolvable).
    public static var resolvable: UTType { system("com.apple.resolvable") }
    /// The system type `public.url` (URL).
    public static var url: UTType { system("public.url") }
    /// The system type `public.file-url` (file URL).
    public static var fileURL: UTType { system("public.file-url") }
    /// The system type `public.text` (text).
    public static var text: UTType { system("public.text") }
    /// The system type `public.plain-text` (plain text).
    public static var plainText: UTType { system("public.plain-text") }
    /// The system type `public.utf8-plain-text` (Unicode (UTF-8) text).
    public static var utf8PlainText: UTType { system("public.utf8-plain-text") }
    /// The system type `public.utf16-external-plain-text` (Unicode (UTF-16) text).
    public static var utf16ExternalPlainText: UTType { system("public.utf16-external-plain-text") }
    /// The system type `public.utf16-plain-text` (Unicode (UTF-16) text).
    public static var utf16PlainText: UTType { system("public.utf16-plain-text") }
    /// The system type `public.delimited-values-text` (delimited text).
    public static var delimitedText: UTType { system("public.delimited-values-text") }
    /// The system type `public.comma-separated-values-text` (comma-separated values).
    public static var commaSeparatedText: UTType { system("public.comma-separated-values-text") }
    /// The system type `public.tab-separated-values-text` (tab-separated values).
    public static var tabSeparatedText: UTType { system("public.tab-separated-values-text") }
    /// The system type `public.utf8-tab-separated-values-text` (UTF-8 tab-separated values).
    public static var utf8TabSeparatedText: UTType { system("public.utf8-tab-separated-values-text") }
    /// The system type `public.rtf` (rich text (RTF)).
    public static var rtf: UTType { system("public.rtf") }
    /// The system type `public.html` (HTML text).
    public static var html: UTType { system("public.html") }
    /// The system type `public.xml` (XML text).
    public static var xml: UTType { system("public.xml") }
    /// The system type `public.yaml` (YAML).
    public static var yaml: UTType { system("public.yaml") }
    /// The system type `public.json` (JSON).
    public static var json: UTType { system("public.json") }
    /// The system type `com.apple.property-list` (property list).
    public static var propertyList: UTType { system("com.apple.property-list") }
    /// The system type `com.apple.xml-property-list` (XML property list).
    public static var xmlPropertyList: UTType { system("com.apple.xml-property-list") }
    /// The system type `com.apple.binary-property-list` (binary property list).
    public static var binaryPropertyList: UTType { system("com.apple.binary-property-list") }
    /// The system type `public.source-code` (source code).
    public static var sourceCode: UTType { system("public.source-code") }
    /// The system type `public.swift-source` (Swift source).
    public static var swiftSource: UTType { system("public.swift-source") }
    /// The system type `public.c-source` (C source).
    public static var cSource: UTType { system("public.c-source") }
    /// The system type `public.c-header` (C header).
    public static var cHeader: UTType { system("public.c-header") }
    /// The system type `public.script` (script).
    public static var script: UTType { system("public.script") }
    /// The system type `public.shell-script` (shell script).
    public static var shellScript: UTType { system("public.shell-script") }
    /// The system type `public.python-script` (Python script).
    public static var pythonScript: UTType { system("public.python-script") }
    /// The system type `com.netscape.javascript-source` (JavaScript).
    public static var javaScript: UTType { system("com.netscape.javascript-source") }
    /// The system type `public.log` (log file).
    public static var log: UTType { system("public.log") }
    /// The system type `public.vcard` (vCard).
    public static var vCard: UTType { system("public.vcard") }
    /// The system type `public.calendar-event` (calendar event).
    public static var calendarEvent: UTType { system("public.calendar-event") }
    /// The system type `com.apple.ical.ics` (iCalendar file).
    public static var ics: UTType { system("com.apple.ical.ics") }
    /// The system type `public.email-message` (email message).
    public static var emailMessage: UTType { system("public.email-message") }
    /// The system type `public.image` (image).
    public static var image: UTType { system("public.image") }
    /// The system type `public.png` (PNG image).
    public static var png: UTType { system("public.png") }
    /// The system type `public.jpeg` (JPEG image).
    public static var jpeg: UTType { system("public.jpeg") }
    /// The system type `com.compuserve.gif` (GIF image).
    public static var gif: UTType { system("com.compuserve.gif") }
    /// The system type `public.tiff` (TIFF image).
    public static var tiff: UTType { system("public.tiff") }
    /// The system type `com.microsoft.bmp` (Windows bitmap image).
    public static var bmp: UTType { system("com.microsoft.bmp") }
    /// The system type `com.microsoft.ico` (Windows icon image).
    public static var ico: UTType { system("com.microsoft.ico") }
    /// The system type `public.heic` (HEIC image).
    public static var heic: UTType { system("public.heic") }
    /// The system type `public.heif` (HEIF image).
    public static var heif: UTType { system("public.heif") }
    /// The system type `public.heif-standard` (HEIF image).
    public static var heifStandard: UTType { system("public.heif-standard") }
    /// The system type `org.webmproject.webp` (WebP image).
    public static var webP: UTType { system("org.webmproject.webp") }
    /// The system type `public.svg-image` (SVG image).
    public static var svg: UTType { system("public.svg-image") }
    /// The system type `public.camera-raw-image` (raw image).
    public static var rawImage: UTType { system("public.camera-raw-image") }
    /// The system type `com.apple.live-photo` (Live Photo).
    public static var livePhoto: UTType { system("com.apple.live-photo") }
    /// The system type `com.adobe.pdf` (PDF document).
    public static var pdf: UTType { system("com.adobe.pdf") }
    /// The system type `org.idpf.epub-container` (EPUB document).
    public static var epub: UTType { system("org.idpf.epub-container") }
    /// The system type `public.font` (font).
    public static var font: UTType { system("public.font") }
    /// The system type `public.audiovisual-content` (audiovisual content).
    public static var audiovisualContent: UTType { system("public.audiovisual-content") }
    /// The system type `public.movie` (movie).
    public static var movie: UTType { system("public.movie") }
    /// The system type `public.video` (video).
    public static var video: UTType { system("public.video") }
    /// The system type `public.audio` (audio).
    public static var audio: UTType { system("public.audio") }
    /// The system type `public.mp3` (MP3 audio).
    public static var mp3: UTType { system("public.mp3") }
    /// The system type `com.microsoft.waveform-audio` (Waveform audio).
    public static var wav: UTType { system("com.microsoft.waveform-audio") }
    /// The system type `public.mpeg-4` (MPEG-4 movie).
    public static var mpeg4Movie: UTType { system("public.mpeg-4") }
    /// The system type `public.mpeg-4-audio` (MPEG-4 audio).
    public static var mpeg4Audio: UTType { system("public.mpeg-4-audio") }
    /// The system type `com.apple.quicktime-movie` (QuickTime movie).
    public static var quickTimeMovie: UTType { system("com.apple.quicktime-movie") }
    /// The system type `public.archive` (archive).
    public static var archive: UTType { system("public.archive") }
    /// The system type `public.zip-archive` (ZIP archive).
    public static var zip: UTType { system("public.zip-archive") }
    /// The system type `org.gnu.gnu-zip-archive` (gzip archive).
    public static var gzip: UTType { system("org.gnu.gnu-zip-archive") }
    /// The system type `public.bzip2-archive` (bzip2 archive).
    public static var bz2: UTType { system("public.bzip2-archive") }
    /// The system type `public.database` (database).
    public static var database: UTType { system("public.database") }
    /// The system type `public.message` (message).
    public static var message: UTType { system("public.message") }
    /// The system type `public.presentation` (presentation).
    public static var presentation: UTType { system("public.presentation") }
    /// The system type `public.spreadsheet` (spreadsheet).
    public static var spreadsheet: UTType { system("public.spreadsheet") }
    /// The system type `public.contact` (contact).
    public static var contact: UTType { system("public.contact") }
    /// The system type `public.to-do-item` (to-do item).
    public static var toDoItem: UTType { system("public.to-do-item") }
    /// The system type `public.x509-certificate` (X.509 certificate).
    public static var x509Certificate: UTType { system("public.x509-certificate") }
    /// The system type `com.rsa.pkcs-12` (PKCS #12 archive).
    public static var pkcs12: UTType { system("com.rsa.pkcs-12") }
}
