import Foundation
import GymTimerCore
import Testing

/// A card's pseudonym (issue 48): HMAC-SHA-256 of the UID under the gym's key, its first 12
/// bytes. The expected values are Python's (`hmac.new(key, uid, sha256).hexdigest()[:24]`), so a
/// test outside Swift (the console's, the chain's) computes the same pseudonym.
@Suite struct CardPseudonymTests {
    static let key = CardKey(secret: Array(repeating: 0x42, count: 32))!

    @Test func aPseudonymIsTheKeyedHashOfTheUIDAndNeverTheUID() {
        let uid = CardUID(hex: "04A1B2C3")!
        let card = Self.key.pseudonym(of: uid)
        #expect(card.hex == "2AECF06F995E56DA14B97703")
        #expect(card.isPseudonym && !card.hex.contains("04A1B2C3"))
        #expect(Self.key.pseudonym(of: CardUID(hex: "04:a1:b2:c3:d4:e5:f6")!).hex == "512CAE2F467914AB1D1E147C")
        // Another gym's key: another pseudonym for the same fob.
        #expect(CardKey(secret: Array(repeating: 0x43, count: 32))!.pseudonym(of: uid) != card)
        // The simulator's public key, which the scenarios' traces use.
        #expect(CardKey.simulation.pseudonym(of: uid).hex == "78177D0C0B3CA735EE9EE803")
    }

    @Test func aStoredUIDIsCarriedToItsPseudonymOnceAndAPseudonymStaysAsItIs() {
        let old = CardID(hex: "04A1B2C3")!
        #expect(!old.isPseudonym)
        let carried = Self.key.carried(old)
        #expect(carried.hex == "2AECF06F995E56DA14B97703")
        #expect(Self.key.carried(carried) == carried, "carrying twice changes nothing")
    }

    @Test func aCardIsAUIDsLengthOrAPseudonymsAndNothingElse() {
        #expect(CardID(hex: "2AECF06F995E56DA14B97703")?.isPseudonym == true)
        #expect(CardID(bytes: Array(repeating: 7, count: 11)) == nil)
        #expect(CardID(bytes: Array(repeating: 7, count: 13)) == nil)
        #expect(CardUID(bytes: Array(repeating: 7, count: 12)) == nil, "a pseudonym is never a UID")
        #expect(CardUID(hex: "2AECF06F995E56DA14B97703") == nil)
    }

    @Test func aKeyIsSixteenToSixtyFourBytesOfHexOnItsFirstLine() {
        let text = String(repeating: "42", count: 32)
        #expect(CardKey(text: text + "\n") == Self.key)
        #expect(CardKey(text: "  " + text + "\r\nanything else") == Self.key)
        for bad in ["", "\n" + text, String(repeating: "42", count: 15), String(repeating: "42", count: 65), "zz" + text, "42:" + text] {
            #expect(CardKey(text: bad) == nil, "\(bad.prefix(12))")
        }
        #expect(CardKey(text: Self.key.fileText) == Self.key)
        let generated = CardKey.generate()
        #expect(generated != CardKey.generate() && CardKey(text: generated.fileText) == generated)
    }

    @Test func aKioskStoredWithAUIDOnItIsCarriedToThePseudonym() {
        var kiosk = Kiosk(settings: KioskSettings())
        _ = kiosk.handle(.tapped(CardTap(card: CardID(hex: "04A1B2C3")!)), at: Moment(nanoseconds: 1_000_000_000))
        #expect(kiosk.athlete?.card.hex == "04A1B2C3")
        let carried = kiosk.carryingCards(with: Self.key)
        #expect(carried.athlete?.card.hex == "2AECF06F995E56DA14B97703")
        #expect(carried.athlete?.since == kiosk.athlete?.since, "nothing else changes")
        #expect(carried.carryingCards(with: Self.key) == carried)
    }
}
