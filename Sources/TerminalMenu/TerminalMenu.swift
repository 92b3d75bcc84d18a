// SPDX-License-Identifier: Apache-2.0
// A terminal menu on announced: a list of dishes under headings, each row one stop that combines
// its name, price and tags (`children_mode: combine`), custom actions on every row, and two custom
// rotors ("Vegan dishes", "Specials"). Drive it with `announcectl navigate` in another terminal:
// headings rotor to jump between courses, Enter adds a dish, the actions rotor (or
// `announcectl action "Show allergens"`) picks another action, the magic tap places the order.
//
//     swift run TerminalMenu
//
// Type `q` and Return (or end the input) to quit.
import AnnounceClient
import Dispatch

/// One dish on the menu.
struct Dish {
    let id: String
    let name: String
    let price: Int
    let vegan: Bool
    let special: Bool
    let allergens: String
}

@main
@MainActor
enum TerminalMenu {
    static let announcer = Announcer(clientName: "TerminalMenu")
    static let courses: [(id: String, title: String, dishes: [Dish])] = [
        (
            "starters", "Starters",
            [
                Dish(id: "soup", name: "Tomato soup", price: 5, vegan: true, special: false, allergens: "celery"),
                Dish(
                    id: "salad", name: "Goat cheese salad", price: 7, vegan: false, special: true,
                    allergens: "milk, nuts"),
            ]
        ),
        (
            "mains", "Mains",
            [
                Dish(id: "curry", name: "Chickpea curry", price: 12, vegan: true, special: true, allergens: "mustard"),
                Dish(id: "fish", name: "Grilled trout", price: 16, vegan: false, special: false, allergens: "fish"),
            ]
        ),
        (
            "desserts", "Desserts",
            [
                Dish(id: "sorbet", name: "Lemon sorbet", price: 4, vegan: true, special: false, allergens: "none")
            ]
        ),
    ]
    static var order: [Dish] = []
    /// The order's values to send to the daemon, in the order they were shown.
    static let orderValues = AsyncStream.makeStream(of: String.self)

    static func main() async {
        announcer.onActivate { id in
            if id == "order" { placeOrder() } else if let dish = dish(id) { add(dish) }
        }
        announcer.onCustomAction { id, action in
            guard let dish = dish(id) else { return }
            switch action {
            case "Add to order": add(dish)
            case "Show allergens": say("\(dish.name): allergens \(dish.allergens).")
            default: break
            }
        }
        announcer.onMagicTap { placeOrder() }
        announcer.onEscape {
            order = []
            showOrder()
            say("Order cleared.")
        }
        announcer.screenChanged(.text("Menu"), elements: elements(), rotors: rotors())
        printMenu()
        let (announcer, values) = (announcer, orderValues.stream)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await value in values {
                    try? await announcer.update(ElementUpdate(id: "order", value: .some(value)))
                }
            }
            for await line in standardInputLines() where line == "q" { break }
            group.cancelAll()
        }
    }

    /// The screen: for each course a heading and its dishes, each dish one combined stop; then
    /// the order, a button.
    static func elements() -> [Element] {
        var elements: [Element] = []
        for course in courses {
            elements.append(Element(id: course.id, label: course.title, traits: [.header]))
            for dish in course.dishes {
                var children = [Element(id: "\(dish.id)-price", label: "\(dish.price) euros", traits: [.staticText])]
                if dish.vegan {
                    children.append(Element(id: "\(dish.id)-vegan", label: "vegan", traits: [.staticText]))
                }
                elements.append(
                    Element(
                        id: dish.id, label: dish.name, hint: "Adds it to your order.", children: children,
                        childrenMode: .combine, actions: ["Add to order", "Show allergens"]
                    ))
            }
        }
        elements.append(
            Element(id: "order", label: "Your order", value: orderValue, traits: [.button], hint: "Places the order."))
        return elements
    }

    static func rotors() -> [CustomRotor] {
        let dishes = courses.flatMap(\.dishes)
        return [
            CustomRotor(name: "Vegan dishes", elements: dishes.filter(\.vegan).map(\.id)),
            CustomRotor(name: "Specials", elements: dishes.filter(\.special).map(\.id)),
        ]
    }

    static var orderValue: String {
        order.isEmpty
            ? "empty"
            : "\(order.count) \(order.count == 1 ? "dish" : "dishes"), \(order.reduce(0) { $0 + $1.price }) euros"
    }

    static func dish(_ id: String) -> Dish? { courses.flatMap(\.dishes).first { $0.id == id } }

    static func add(_ dish: Dish) {
        order.append(dish)
        showOrder()
        say("\(dish.name) added.")
    }

    static func placeOrder() {
        say(order.isEmpty ? "Your order is empty." : "Order placed: \(orderValue).")
    }

    static func showOrder() {
        let value = orderValue
        print("Your order: \(value)")
        orderValues.continuation.yield(value)
    }

    static func say(_ text: String) {
        print(text)
        announcer.announce(text)
    }

    static func printMenu() {
        for course in courses {
            print("\n\(course.title)")
            for dish in course.dishes { print("  \(dish.name)  \(dish.price) €\(dish.vegan ? "  (vegan)" : "")") }
        }
        print("\nYour order: \(orderValue)\nDrive it with `announcectl navigate`; q and Return quits.")
    }

    /// The lines typed on standard input, without the spaces around them, read on a queue of
    /// their own (a blocking read, kept off Swift's cooperative threads).
    static func standardInputLines() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        DispatchQueue(label: "standard-input").async {
            while let line = readLine() {
                continuation.yield(
                    String(line.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()))
            }
            continuation.finish()
        }
        return stream
    }
}
