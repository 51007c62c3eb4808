import Foundation

/// The secrets that let a visitor in: making them from the system's random source, and comparing them in a
/// time that does not depend on where a guess first differs.
enum AccessSecret {
    /// `bytes` bytes from the system's cryptographic random source (`getrandom(2)` on Linux), as lowercase hex.
    static func make(bytes: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(bytes * 2)
        for _ in 0..<bytes {
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// Whether `guess` equals `secret`. Every byte of the secret is compared whatever the guess holds, so the
    /// time taken says nothing about how much of a guess was right (only the secret's length, which is public).
    static func matches(_ guess: Substring.UTF8View, _ secret: String.UTF8View) -> Bool {
        let expected = Array(secret)
        let given = Array(guess)
        var difference = given.count == expected.count ? 0 : 1
        for index in expected.indices {
            let other = index < given.count ? given[index] : 0
            difference |= Int(other ^ expected[index])
        }
        return difference == 0
    }

    /// Whether `guess` equals `secret`, in constant time (see ``matches(_:_:)-(Substring.UTF8View,_)``).
    static func matches(_ guess: String, _ secret: String) -> Bool {
        matches(Substring(guess).utf8, secret.utf8)
    }
}
