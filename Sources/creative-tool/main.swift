import CreativeCLI

#if canImport(Glibc)
import Glibc
#endif

exit(CommandLineTool.main(CommandLineTool.arguments()))
