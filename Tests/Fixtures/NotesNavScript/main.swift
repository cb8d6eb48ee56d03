import NavScriptCLI
import NotesApp

NavScriptCLI.main(host: { try NotesHost() })
