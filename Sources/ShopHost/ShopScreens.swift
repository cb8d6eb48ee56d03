import NavScript

/// The outputs each ShopApp screen offers a `tap`, as the coordinators wire
/// them: the names `navscript types` and `navscript routes` show, so a QA
/// engineer never has to read Swift to find a tap name. `opens` names the
/// destination a tap lands on when the tap alone decides it (the graph
/// draws it, `tap` checks its parameters against that destination); taps
/// whose destination takes an id from the screen (`reviews`, `tracking`) or
/// depends on a flow (`continue`) leave it out.
enum ShopScreens {
    typealias Output = ScreenDeclaration.Output

    static let product = Output("product", parameters: ["id"], opens: "product")
    static let cart = Output("cart", opens: "cart")
    static let close = Output("close")

    static var declarations: [ScreenDeclaration] {
        [
            ScreenDeclaration(
                "home",
                [
                    product, Output("category", parameters: ["id"], opens: "category"),
                    Output("promo", parameters: ["code"], opens: "promo"), cart
                ]),
            ScreenDeclaration("category", [product, cart]),
            ScreenDeclaration("promo", [product, cart]),
            ScreenDeclaration("product", [Output("reviews"), product, cart]),
            ScreenDeclaration("reviews", [product]),
            ScreenDeclaration("cart", [Output("checkout", opens: "checkout_address")]),
            ScreenDeclaration("checkout_address", [close, Output("continue")]),
            ScreenDeclaration("checkout_payment", [close, Output("continue")]),
            ScreenDeclaration("checkout_confirm", [close, Output("pay")]),
            ScreenDeclaration("add_payment", [close, Output("done")]),
            ScreenDeclaration("orders", [Output("order", parameters: ["id"], opens: "order")]),
            ScreenDeclaration("order", [Output("tracking")]),
            ScreenDeclaration("tracking", []),
            ScreenDeclaration(
                "profile",
                [
                    Output("settings", opens: "settings"), Output("profile_edit", opens: "profile_edit"),
                    Output("sign_in", opens: "login")
                ]),
            ScreenDeclaration("profile_edit", [close, Output("done")]),
            ScreenDeclaration(
                "settings",
                [
                    close, Output("settings_notifications", opens: "settings_notifications"),
                    Output("settings_security", opens: "settings_security")
                ]),
            ScreenDeclaration("settings_notifications", [close]),
            ScreenDeclaration("settings_security", [close]),
            ScreenDeclaration("login", [close, Output("submit")]),
            ScreenDeclaration("two_factor", [close, Output("submit")]),
            ScreenDeclaration("welcome", [Output("continue"), Output("sign_in", opens: "login")]),
            ScreenDeclaration("value_prop_video", [Output("continue"), Output("skip")]),
            ScreenDeclaration("sign_up", [Output("continue")]),
            ScreenDeclaration("profile_setup", [Output("continue")]),
            ScreenDeclaration("notifications_permission", [Output("done")])
        ]
    }
}
