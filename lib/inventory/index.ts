export { parseStockFile, stockCodeSchema, StockFileError, type RejectedStockRow, type StockCode, type StockFileRow } from "./stock-file";
export { importStock, releaseCodes, reserveCode, sellCode, stockLevels, StockError, type StockImportReport, type StockLevel } from "./stock";
