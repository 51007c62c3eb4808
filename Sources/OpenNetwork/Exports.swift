// `import Network` on Apple's systems brings Foundation's types (Data, URL, the coders) to code that uses it, and
// the talk's samples rely on that; `import OpenNetwork` does the same.
@_exported import Foundation
