import Hummingbird

/// Refuses, before any route, a request whose `Host` is not one of the console's own
/// (`ConsoleHosts`): 421 with where the console is. DNS rebinding cannot reach it.
struct ConsoleHostCheck<Context: RequestContext>: RouterMiddleware {
    let hosts: ConsoleHosts

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard hosts.allows(request.head.authority) else {
            return ConsoleServer.text(
                .misdirectedRequest, "refused: this console answers at http://\(hosts.preferred)/ (gymtimer console --name adds a name)\n",
                type: "text/plain; charset=utf-8")
        }
        return try await next(request, context)
    }
}
