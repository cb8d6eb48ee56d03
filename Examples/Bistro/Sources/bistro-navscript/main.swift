import BistroHost
import NavScriptCLI

NavScriptCLI.main(host: { try BistroHost() })
