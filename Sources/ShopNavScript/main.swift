import NavScriptCLI
import ShopHost

NavScriptCLI.main(host: { try ShopHost() })
