import NavScriptCLI
import WanderHost

NavScriptCLI.main(host: { try WanderHost() })
