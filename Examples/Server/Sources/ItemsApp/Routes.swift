// The routes, the same for both containers: each handler asks the wiring for this
// request's controller and calls it.
import Hummingbird

extension Item: ResponseEncodable {}

extension HTTPFields.Element.Name {
    /// Which unit of work served a `POST /items`: a new one for every request.
    public static let unitOfWork = Self("X-Unit-Of-Work")!
}

/// `GET /hello/:name`, `GET /items`, `POST /items`, `GET /items/:id`.
public func buildRouter(wiring: some ServiceWiring) -> Router<BasicRequestContext> {
    let router = Router()
    router.get("/hello/:name") { _, context in
        let name = try context.parameters.require("name")
        return wiring.controller().hello(name: name)
    }
    router.get("/items") { _, _ in
        wiring.controller().list()
    }
    router.get("/items/:id") { _, context in
        let id = try context.parameters.require("id", as: Int.self)
        return try wiring.controller().item(id: id)
    }
    router.post("/items") { request, context in
        let controller = wiring.controller()
        let new = try await request.decode(as: NewItem.self, context: context)
        let item = try controller.create(new)
        return EditedResponse(
            status: .created,
            headers: [.unitOfWork: String(controller.items.unitOfWork.id)],
            response: item
        )
    }
    return router
}

/// The application, on `configuration`'s address. Hummingbird's logger reads its
/// level from `LOG_LEVEL`.
public func buildApplication(
    wiring: some ServiceWiring,
    configuration: ApplicationConfiguration = ApplicationConfiguration()
) -> some ApplicationProtocol {
    Application(router: buildRouter(wiring: wiring), configuration: configuration)
}
